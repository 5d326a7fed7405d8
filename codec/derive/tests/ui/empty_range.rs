use codec::Serialize;

#[derive(Serialize)]
struct Input {
    #[serialize(range = 10..=-10)]
    steer: i32,
}

fn main() {}
