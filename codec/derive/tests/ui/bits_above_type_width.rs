use codec::Serialize;

#[derive(Serialize)]
struct Flags {
    #[serialize(bits = 9)]
    mask: u8,
}

fn main() {}
