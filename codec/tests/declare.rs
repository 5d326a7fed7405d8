//! A `serialize` written by hand, for what the derive's attributes cannot
//! say: the value is odd, so only half of it travels. (The README's
//! declared packets are the starter crate's, adversarial/examples/starter.)

use codec::{DecodeError, Serialize, Stream};

#[derive(Debug, Default, PartialEq)]
struct Odd {
    half: i32, // the value is 2 * half + 1
}

impl Serialize for Odd {
    fn serialize<S: Stream>(&mut self, s: &mut S) -> Result<(), S::Error> {
        s.field_name("half");
        s.serialize_int(&mut self.half, 0, 1000)?; // 10 bits
        s.serialize_check("end of odd") // catches a reader out of step, and names where
    }
}

#[test]
fn a_hand_written_serialize_reads_back_and_refuses_out_of_range(
) -> Result<(), Box<dyn std::error::Error>> {
    let mut odd = Odd { half: 21 };
    let written = codec::to_vec(&mut odd)?;
    assert_eq!(codec::from_slice::<Odd>(&written)?, odd);
    // 1023 in the ten bits of `half`: past its range, refused at bit 0.
    let refusal = codec::from_slice::<Odd>(&[0xff; 8]);
    assert_eq!(refusal, Err(DecodeError::OutOfRange { at: 0 }));
    Ok(())
}
