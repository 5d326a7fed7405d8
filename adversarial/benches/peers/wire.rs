//! What a codec offers the benchmark: turn a game's input into its own
//! value once, then encode that value into a reused buffer and decode it
//! from a slice, as a game does with every packet.

/// One codec's way of sending inputs of type `In`.
pub trait Wire<In> {
    /// The codec's column in the tables.
    const NAME: &'static str;
    /// The value the codec encodes: the natural type a programmer would
    /// hold for it (quantized where the codec quantizes).
    type Value: PartialEq;
    /// Buffers reused from packet to packet.
    type State;

    /// Fresh reusable buffers.
    fn state() -> Self::State;

    /// The codec's value for `input` (not timed).
    fn value(input: &In) -> Self::Value;

    /// Encodes `value` into the state's buffer and returns the packet.
    fn encode<'s>(state: &'s mut Self::State, value: &mut Self::Value) -> &'s [u8];

    /// Decodes a packet this codec wrote; the benchmark only hands it
    /// valid packets, so a refusal is a bug worth a panic.
    fn decode(state: &mut Self::State, bytes: &[u8]) -> Self::Value;
}
