use codec::Serialize;

#[derive(Serialize)]
struct Input {
    steer: i32,
}

fn main() {}
