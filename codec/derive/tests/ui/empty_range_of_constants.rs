use codec::Serialize;

const LOW: i32 = 10;
const HIGH: i32 = -10;

#[derive(Serialize)]
struct Input {
    #[serialize(range = LOW..=HIGH)]
    steer: i32,
}

fn main() {}
