use codec::Serialize;

#[derive(Serialize)]
struct Chat {
    #[serialize(range = 0..=10)]
    line: String,
}

fn main() {}
