use codec::Serialize;

#[derive(Serialize)]
struct Input {
    #[serialize(rnage = 0..=10)]
    steer: i32,
}

fn main() {}
