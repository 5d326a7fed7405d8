use codec::Serialize;

#[derive(Serialize)]
struct Input {
    // Only a hand-written `with` field needs a hand-written generator.
    #[serialize(range = 0..=10, arbitrary = pick)]
    steer: i32,
}

fn main() {}
