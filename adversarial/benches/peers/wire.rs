//! What a codec offers the benchmark: turn a game's input into its own
//! value once, then encode that value into a reused buffer and decode it
//! from a slice, as a game does with every packet.

use crate::workload::Batch;

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

/// The codec's values for a batch's inputs and the packet it encodes for
/// each, in fresh buffers.
pub fn encoded<In, W: Wire<In>>(batch: &Batch<In>) -> (W::State, Vec<W::Value>, Vec<Vec<u8>>) {
    let mut state = W::state();
    let mut values: Vec<W::Value> = batch.inputs.iter().map(W::value).collect();
    let packets = values
        .iter_mut()
        .map(|v| W::encode(&mut state, v).to_vec())
        .collect();
    (state, values, packets)
}
