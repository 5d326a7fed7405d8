use codec::Serialize;

#[derive(Serialize)]
struct Flags {
    #[serialize(bits = 65)]
    mask: u64,
}

fn main() {}
