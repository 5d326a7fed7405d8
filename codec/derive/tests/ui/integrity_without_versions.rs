use codec::Serialize;

#[derive(Serialize)]
struct Save {
    #[serialize(bits = 4, after(integrity))]
    level: u8,
}

fn main() {}
