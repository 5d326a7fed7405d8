//! `#[derive(Serialize)]` and `#[derive(Packet)]` for the `codec` crate.
//!
//! Use them through `codec` (`use codec::{Serialize, Packet};`): the derive
//! and the trait share a name, as serde's do. The attributes are documented
//! in `codec::attributes`, each with an example.
//!
//! Every mistake that can be seen in the declaration is a compile error at
//! the attribute that makes it: a range on a string, an empty range, a raw
//! width above 64, a list or string without a maximum, an unknown
//! attribute, a compressed float that needs more than 32 bits. Those whose
//! arguments are constants rather than literals are caught by `const`
//! assertions in the generated code, still at compile time.

mod attr;
mod field;
mod literal;
mod packet;
mod serialize;

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};

/// One generic `serialize` function that writes, reads and measures the
/// type. See `codec::attributes` for the `#[serialize(...)]` attributes.
#[proc_macro_derive(Serialize, attributes(serialize))]
pub fn derive_serialize(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    serialize::expand(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// A protocol from an enum of payloads: variant order is the packet type.
/// Needs `#[packet(protocol_id = 0x12345678, max_bytes = 1024)]`.
#[proc_macro_derive(Packet, attributes(packet))]
pub fn derive_packet(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    packet::expand(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
