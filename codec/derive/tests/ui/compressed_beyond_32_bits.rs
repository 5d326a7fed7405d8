use codec::Serialize;

#[derive(Serialize)]
struct Body {
    #[serialize(compressed(min = -1000000.0, max = 1000000.0, res = 0.00001))]
    x: f32,
}

fn main() {}
