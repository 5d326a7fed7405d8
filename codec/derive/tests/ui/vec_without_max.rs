use codec::Serialize;

#[derive(Serialize)]
struct Inventory {
    #[serialize(range = 0..=99)]
    items: Vec<u16>,
}

fn main() {}
