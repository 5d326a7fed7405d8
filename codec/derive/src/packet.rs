//! `#[derive(Packet)]`: an enum of payload types is a protocol. Variant
//! order is the packet type; each variant holds one payload that implements
//! `Serialize` and `Default`, or nothing.

use proc_macro2::TokenStream;
use quote::quote;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Error, Expr, Fields, Result};

use crate::attr;
use crate::literal;

/// A literal id becomes a 32-bit id when it fits 32 bits and a 64-bit one
/// otherwise; any other expression must be a `ProtocolId` constant.
fn protocol_id(expr: &Expr) -> Result<TokenStream> {
    match literal::int(expr) {
        Some(id) if (0..=i128::from(u32::MAX)).contains(&id) => {
            let id = id as u32;
            Ok(quote!(::codec::packet::ProtocolId::Bits32(#id)))
        }
        Some(id) if (0..=i128::from(u64::MAX)).contains(&id) => {
            let id = id as u64;
            Ok(quote!(::codec::packet::ProtocolId::Bits64(#id)))
        }
        Some(id) => Err(Error::new(
            expr.span(),
            format!("protocol id {id} fits neither 32 nor 64 unsigned bits"),
        )),
        None => Ok(quote!(#expr)),
    }
}

/// The whole `impl Packet`.
pub fn expand(input: &DeriveInput) -> Result<TokenStream> {
    let Data::Enum(data) = &input.data else {
        return Err(Error::new(
            input.ident.span(),
            "`Packet` is derived on an enum with one variant per packet type",
        ));
    };
    let attrs = attr::packet(&input.attrs, input.ident.span())?;
    if data.variants.is_empty() {
        return Err(Error::new(
            input.ident.span(),
            "a protocol needs at least one packet type",
        ));
    }
    let id = protocol_id(&attrs.protocol_id)?;
    let max_bytes = &attrs.max_bytes;
    let types = u32::try_from(data.variants.len())
        .map_err(|_| Error::new(input.ident.span(), "too many packet types"))?;
    let mut type_arms = TokenStream::new();
    let mut empty_arms = TokenStream::new();
    let mut payload_arms = TokenStream::new();
    let mut generate_arms = TokenStream::new();
    let mut name_arms = TokenStream::new();
    for (index, variant) in data.variants.iter().enumerate() {
        let tag = u32::try_from(index).unwrap_or(u32::MAX);
        let ident = &variant.ident;
        let name = ident.to_string();
        name_arms.extend(quote!(#tag => ::core::option::Option::Some(#name),));
        match &variant.fields {
            Fields::Unnamed(fields) if fields.unnamed.len() == 1 => {
                type_arms.extend(quote!(Self::#ident(..) => #tag,));
                empty_arms.extend(quote! {
                    #tag => ::core::option::Option::Some(Self::#ident(::core::default::Default::default())),
                });
                payload_arms.extend(quote! {
                    Self::#ident(payload) => ::codec::Serialize::serialize(payload, __stream),
                });
                generate_arms.extend(quote! {
                    #tag => Self::#ident(::codec::arbitrary::Arbitrary::arbitrary(__u)?),
                });
            }
            Fields::Unit => {
                type_arms.extend(quote!(Self::#ident => #tag,));
                empty_arms.extend(quote!(#tag => ::core::option::Option::Some(Self::#ident),));
                payload_arms.extend(quote!(Self::#ident => ::core::result::Result::Ok(()),));
                generate_arms.extend(quote!(#tag => Self::#ident,));
            }
            _ => {
                return Err(Error::new(
                    variant.span(),
                    "a packet type holds one payload, `Variant(Payload)`, or nothing",
                ))
            }
        }
    }
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let arbitrary = crate::serialize::arbitrary_impl(
        input,
        &quote! {
            let __tag = __u.choose_index(#types as usize)?;
            ::core::result::Result::Ok(match <::core::primitive::u32 as ::core::convert::TryFrom<usize>>::try_from(__tag).unwrap_or(::core::primitive::u32::MAX) {
                #generate_arms
                _ => return ::core::result::Result::Err(::codec::arbitrary::Error::IncorrectFormat),
            })
        },
    );
    Ok(quote! {
        #[automatically_derived]
        impl #impl_generics ::codec::packet::Packet for #ident #ty_generics #where_clause {
            const PROTOCOL_ID: ::codec::packet::ProtocolId = #id;
            const PACKET_TYPES: u32 = #types;
            const MAX_PACKET_BYTES: usize = #max_bytes;

            #[inline]
            fn packet_type(&self) -> u32 {
                match self { #type_arms }
            }

            #[inline]
            fn empty(packet_type: u32) -> ::core::option::Option<Self> {
                match packet_type {
                    #empty_arms
                    _ => ::core::option::Option::None,
                }
            }

            fn type_name(packet_type: u32) -> ::core::option::Option<&'static str> {
                match packet_type {
                    #name_arms
                    _ => ::core::option::Option::None,
                }
            }

            #[inline]
            fn serialize_payload<__S: ::codec::Stream>(
                &mut self,
                __stream: &mut __S,
            ) -> ::core::result::Result<(), <__S as ::codec::Stream>::Error> {
                match self { #payload_arms }
            }
        }

        #arbitrary
    })
}
