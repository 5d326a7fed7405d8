//! Aiming the harness at a codec whose reader can abort: `naia-serde`.
//!
//! `cargo run --release -p gamepacket-adversarial --example naia -- campaign --seconds 10`
//!
//! A game message in naia-serde 0.25 (a list of ranged integers and a
//! string), plugged in through `PlainCodec`. naia's list reader trusts the
//! length it reads and asks for that much memory at once: a cut or flipped
//! packet can ask for exabytes, and the allocation failure aborts the
//! process, which `catch_unwind` cannot stop. The example is the whole
//! `adversarial` command line on this one target, so its campaign runs each
//! case in a worker process and goes on after every abort, counting it as
//! the case's verdict (`died`), shrinking it and writing it under
//! `corpus/crashes/naia-serde/` (`--crash-dir` to put it elsewhere).

use adversarial::plain::{Plain, PlainCodec};
use arbitrary::Unstructured;
use naia_serde::{BitReader, FileBitWriter, Serde, SerdeErr, SerdeInternal, UnsignedInteger};
use std::process::ExitCode;

adversarial::count_allocations!();

/// What a client sends: scores, and a chat line.
#[derive(Clone, Debug, PartialEq, SerdeInternal)]
struct Message {
    scores: Vec<UnsignedInteger<7>>,
    chat: String,
}

struct Naia;

impl PlainCodec for Naia {
    type Value = Message;
    type Error = String;

    fn name(&self) -> &'static str {
        "naia-serde"
    }

    fn decode(&self, bytes: &[u8]) -> Result<Message, String> {
        let mut reader = BitReader::new(bytes);
        Message::de(&mut reader).map_err(|SerdeErr| "naia refused the message".to_string())
    }

    fn encode(&self, value: &Message) -> Result<Vec<u8>, String> {
        let mut writer = FileBitWriter::new();
        value.ser(&mut writer);
        Ok(writer.to_vec())
    }

    fn generate(&self, u: &mut Unstructured<'_>) -> arbitrary::Result<Message> {
        let count = u.int_in_range(0..=16usize)?;
        let scores = (0..count)
            .map(|_| Ok(UnsignedInteger::new(u.int_in_range(0..=127u64)?)))
            .collect::<arbitrary::Result<_>>()?;
        let chat: String = u.arbitrary()?;
        Ok(Message { scores, chat })
    }

    /// naia reads bits until the value is complete and leaves the rest.
    fn refuses_trailing_bytes(&self) -> bool {
        false
    }
}

fn main() -> ExitCode {
    adversarial::cli::main(vec![Box::new(Plain(Naia))])
}
