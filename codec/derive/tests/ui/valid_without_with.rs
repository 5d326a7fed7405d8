use codec::Serialize;

#[derive(Serialize)]
struct Input {
    // A declared range is its own rule: only a `with` field states one apart.
    #[serialize(range = 0..=10, valid = small)]
    steer: i32,
}

fn main() {}
