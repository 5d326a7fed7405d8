//! The fuzz targets' bodies as bolero checks, so that plain `cargo test` on
//! stable exercises them (random inputs, about a second each); under
//! `cargo bolero` or `cargo fuzz` the same bodies are coverage-guided.

adversarial::count_allocations!();

use adversarial::fuzz;
use bolero::check;

#[test]
fn read_packets() {
    check!().for_each(|input: &[u8]| fuzz::read("packets", input));
}

#[test]
fn read_scenes() {
    check!().for_each(|input: &[u8]| fuzz::read("scenes", input));
}

#[test]
fn read_scenes_entropy() {
    check!().for_each(|input: &[u8]| fuzz::read("scenes-entropy", input));
}

#[test]
fn read_scenes_golomb() {
    check!().for_each(|input: &[u8]| fuzz::read("scenes-golomb", input));
}

#[test]
fn read_save() {
    check!().for_each(|input: &[u8]| fuzz::read("save", input));
}

#[test]
fn read_kinds() {
    check!().for_each(|input: &[u8]| fuzz::read("kinds", input));
}

#[test]
fn read_stream_program() {
    check!().for_each(|input: &[u8]| fuzz::read("stream", input));
}

#[test]
fn roundtrip_protocols() {
    check!().for_each(|input: &[u8]| fuzz::roundtrip_protocols(input));
}

#[test]
fn roundtrip_stream_program() {
    check!().for_each(|input: &[u8]| fuzz::roundtrip_stream_program(input));
}

#[test]
fn mutate_protocols() {
    check!().for_each(|input: &[u8]| fuzz::mutate_protocols(input));
}
