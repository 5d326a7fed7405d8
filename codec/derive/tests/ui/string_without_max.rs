use codec::Serialize;

#[derive(Serialize)]
struct Chat {
    line: String,
}

fn main() {}
