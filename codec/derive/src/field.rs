//! The code for one field: its type is peeled layer by layer (arrays,
//! `Option`, `Vec`, `String`) and the declared wire form applied to the
//! innermost values.

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::{quote, quote_spanned, ToTokens};
use syn::spanned::Spanned;
use syn::{Error, Expr, GenericArgument, Ident, PathArguments, Result, Type};

use crate::attr::{FieldAttrs, Leaf};
use crate::literal;

/// What the generic bounds of the impl need from a field's innermost type.
pub struct Bound {
    /// The innermost type, serialized through its own `Serialize`.
    pub ty: Type,
    /// Whether a reader must make one from nothing (inside `Option`/`Vec`).
    pub default: bool,
}

/// The code that serializes one field, and the bound it needs.
pub struct Code {
    /// An expression of type `Result<(), __S::Error>`.
    pub expr: TokenStream,
    /// An expression of the field's type: a valid value drawn from the
    /// `arbitrary` input `__u` (it may use `?`).
    pub generate: TokenStream,
    /// Compile-time assertions on the declaration, for a `const` item
    /// beside the impl (evaluated whether or not the impl is ever used).
    pub checks: TokenStream,
    /// Set when the field goes through its type's own `Serialize`.
    pub bound: Option<Bound>,
    /// A const expression of type `Option<u64>`: the most bits the field
    /// writes, `None` where it has no bound the declaration shows.
    pub max_bits: TokenStream,
}

/// The last segment of a type path, and its single generic argument if any.
fn segment(ty: &Type) -> Option<(String, Option<&Type>)> {
    let Type::Path(path) = ty else { return None };
    if path.qself.is_some() {
        return None;
    }
    let last = path.path.segments.last()?;
    let argument = match &last.arguments {
        PathArguments::AngleBracketed(args) if args.args.len() == 1 => match args.args.first() {
            Some(GenericArgument::Type(inner)) => Some(inner),
            _ => None,
        },
        _ => None,
    };
    Some((last.ident.to_string(), argument))
}

fn is(ty: &Type, name: &str) -> bool {
    segment(ty).is_some_and(|(ident, arg)| ident == name && arg.is_none())
}

/// Builds the code for `place` (an expression of type `&mut ty`).
pub struct Builder<'a> {
    attrs: &'a FieldAttrs,
    /// The field's name as the stream hears it.
    name: String,
    max_len_used: bool,
    bound: Option<Bound>,
    checks: TokenStream,
    /// The type parameters in scope: a check that names one cannot be a
    /// free `const` item, and is left to the trait bounds.
    params: &'a [syn::Ident],
}

impl<'a> Builder<'a> {
    pub fn new(attrs: &'a FieldAttrs, name: String, params: &'a [syn::Ident]) -> Self {
        Self {
            attrs,
            name,
            max_len_used: false,
            bound: None,
            checks: TokenStream::new(),
            params,
        }
    }

    /// The code of the whole field.
    pub fn build(mut self, ty: &Type, place: TokenStream) -> Result<Code> {
        let (expr, generate) = self.layer(ty, place, false)?;
        let max_bits = self.max_bits(ty);
        if let (Some(max), false) = (&self.attrs.max_len, self.max_len_used) {
            return Err(Error::new(
                max.span(),
                "`max_len` bounds a `Vec` or a `String`, and this field has neither",
            ));
        }
        Ok(Code {
            expr,
            generate,
            checks: self.checks,
            bound: self.bound,
            max_bits,
        })
    }

    /// The most bits a value of `ty` writes under this field's
    /// declaration, as `layer` serializes it: arrays, `Option`, raw bits,
    /// ranges and types with a `Serialize` of their own; `None` for lists,
    /// strings and the wire forms whose size is not added up here.
    fn max_bits(&self, ty: &Type) -> TokenStream {
        let none = quote!(::core::option::Option::None);
        let leaf = self.attrs.leaf.as_ref().map(|(leaf, _)| leaf);
        if let Type::Array(array) = ty {
            let len = &array.len;
            if matches!(leaf, Some(Leaf::Bytes)) && is(&array.elem, "u8") {
                return quote! {
                    ::codec::max_bits::sum(::codec::max_bits::ALIGN, ::codec::max_bits::times(::core::option::Option::Some(8), #len))
                };
            }
            let inner = self.max_bits(&array.elem);
            return quote!(::codec::max_bits::times(#inner, #len));
        }
        if let Some((ident, argument)) = segment(ty) {
            match (ident.as_str(), argument) {
                ("String" | "Vec", _) => return none,
                ("Option", Some(inner)) if !matches!(leaf, Some(Leaf::With(_))) => {
                    let inner = self.max_bits(inner);
                    return quote!(::codec::max_bits::sum(::core::option::Option::Some(1), #inner));
                }
                _ => {}
            }
        }
        if mentions(ty, self.params) {
            return none;
        }
        match leaf {
            None => quote!(<#ty as ::codec::Serialize>::MAX_BITS),
            Some(Leaf::Range { min, max }) => {
                // Typed first: an untyped literal bound is of the field's type.
                quote! {{
                    let (__min, __max): (#ty, #ty) = (#min, #max);
                    ::codec::max_bits::ranged(__min as i128, __max as i128)
                }}
            }
            Some(Leaf::Bits(bits)) => quote!(::core::option::Option::Some((#bits) as u64)),
            Some(_) => none,
        }
    }

    fn max_len(&mut self, ty: &Type, what: &str) -> Result<Expr> {
        if self.max_len_used {
            return Err(Error::new(
                ty.span(),
                "one `max_len` bounds one list: a list of lists needs a type of its own for the inner one",
            ));
        }
        self.max_len_used = true;
        match &self.attrs.max_len {
            Some(max) => {
                if let Some(n) = literal::int(max) {
                    if !(0..=i128::from(u32::MAX) - 1).contains(&n) {
                        return Err(Error::new(
                            max.span(),
                            format!("`max_len = {n}`: a maximum is 0 to 4294967294"),
                        ));
                    }
                }
                Ok(max.clone())
            }
            None => Err(Error::new(
                ty.span(),
                format!(
                    "{what} needs a maximum: add `#[serialize(max_len = N)]` \
                     (a reader refuses a longer one before reading it)"
                ),
            )),
        }
    }

    fn leaf_span(&self) -> Span {
        self.attrs
            .leaf
            .as_ref()
            .map_or_else(Span::call_site, |(_, s)| *s)
    }

    /// One layer of the type; `inside` is set below an `Option` or a `Vec`.
    /// Returns the code that serializes it and the code that generates a
    /// valid value of it.
    fn layer(
        &mut self,
        ty: &Type,
        place: TokenStream,
        inside: bool,
    ) -> Result<(TokenStream, TokenStream)> {
        let attrs = self.attrs;
        let leaf = attrs.leaf.as_ref().map(|(leaf, _)| leaf);
        let name = self.name.clone();
        if let Type::Array(array) = ty {
            if matches!(leaf, Some(Leaf::Bytes)) && is(&array.elem, "u8") {
                return Ok((
                    quote!(__s.serialize_bytes(#place)),
                    quote!(::codec::arbitrary::Arbitrary::arbitrary(__u)?),
                ));
            }
            let (inner, generate) = self.layer(&array.elem, quote!(__e), inside)?;
            return Ok((
                quote!((#place).iter_mut().try_for_each(|__e| #inner)),
                quote!(::codec::arbitrary::array(__u, |__u| ::core::result::Result::Ok(#generate))?),
            ));
        }
        if let Some((ident, argument)) = segment(ty) {
            match (ident.as_str(), argument, leaf) {
                ("String", None, Some(Leaf::Wide)) => {
                    let max = self.max_len(ty, "a `String`")?;
                    return Ok((
                        quote!(::codec::ops::list::serialize_wide_string(__s, #place, #max)),
                        quote!(::codec::arbitrary::wide_string(__u, #max)?),
                    ));
                }
                ("String", None, None) => {
                    let max = self.max_len(ty, "a `String`")?;
                    return Ok((
                        quote!(__s.serialize_string(#place, ::codec::ops::list::buffer_size(#max))),
                        quote!(::codec::arbitrary::string(__u, #max)?),
                    ));
                }
                ("String", None, Some(leaf)) if !matches!(leaf, Leaf::With(_)) => {
                    return Err(Error::new(
                        self.leaf_span(),
                        "this field is a `String`: it takes `max_len = N` (and `wide` for UTF-16), \
                         not a range, a width or a quantization",
                    ));
                }
                ("Vec", Some(inner), Some(Leaf::Bytes)) if is(inner, "u8") => {
                    let max = self.max_len(ty, "a `Vec`")?;
                    return Ok((
                        quote!(::codec::ops::list::serialize_byte_vec(__s, #place, #max, #name)),
                        quote!(::codec::arbitrary::list(__u, #max, ::codec::arbitrary::Unstructured::arbitrary::<u8>)?),
                    ));
                }
                ("Vec", Some(inner), Some(Leaf::Wide)) if is(inner, "u16") => {
                    let max = self.max_len(ty, "a `Vec`")?;
                    return Ok((
                        quote!(__s.serialize_wstring(#place, ::codec::ops::list::buffer_size(#max))),
                        quote!(::codec::arbitrary::wide_units(__u, #max)?),
                    ));
                }
                ("Vec", Some(_), Some(Leaf::Subset { strategy, size })) => {
                    return Ok((
                        quote!(::codec::subset::#strategy(__s, #place, #size)),
                        quote!(::codec::arbitrary::subset(__u, #size)?),
                    ));
                }
                ("Vec", Some(inner), _) if !matches!(leaf, Some(Leaf::With(_))) => {
                    let max = self.max_len(ty, "a `Vec`")?;
                    let (element, generate) = self.layer(inner, quote!(__e), true)?;
                    return Ok((
                        quote! {
                            ::codec::ops::list::serialize_list(__s, #place, #max, #name, |__s, __e| #element)
                        },
                        quote! {
                            ::codec::arbitrary::list(__u, #max, |__u| ::core::result::Result::Ok(#generate))?
                        },
                    ));
                }
                ("Option", Some(inner), _) if !matches!(leaf, Some(Leaf::With(_))) => {
                    let (element, generate) = self.layer(inner, quote!(__e), true)?;
                    return Ok((
                        quote!(::codec::ops::list::serialize_option(__s, #place, |__s, __e| #element)),
                        quote!(::codec::arbitrary::option(__u, |__u| ::core::result::Result::Ok(#generate))?),
                    ));
                }
                _ => {}
            }
        }
        self.leaf(ty, place, inside)
    }

    /// The innermost values: the code that serializes them, and the code
    /// that generates one.
    fn leaf(
        &mut self,
        ty: &Type,
        place: TokenStream,
        inside: bool,
    ) -> Result<(TokenStream, TokenStream)> {
        let span = self.leaf_span();
        let attrs = self.attrs;
        let any =
            quote_spanned!(ty.span()=> <#ty as ::codec::arbitrary::Arbitrary>::arbitrary(__u)?);
        let Some((leaf, _)) = &attrs.leaf else {
            self.bound = Some(Bound {
                ty: ty.clone(),
                default: inside,
            });
            return Ok((
                quote_spanned!(ty.span()=> ::codec::Serialize::serialize(#place, __s)),
                any,
            ));
        };
        let serialize = self.leaf_serialize(leaf, ty, place, span)?;
        let generate = match leaf {
            Leaf::Range { min, max } => quote_spanned! {span=>
                ::codec::arbitrary::ranged::<#ty>(__u, #min, #max)?
            },
            Leaf::Bits(bits) => quote_spanned! {span=>
                ::codec::arbitrary::raw_bits::<#ty>(__u, #bits)?
            },
            Leaf::Compressed { min, max, res } => quote_spanned! {span=>
                <#ty as ::codec::arbitrary::ArbitraryCompressed>::arbitrary_compressed(
                    __u,
                    &const { ::codec::CompressedFloat::new(#min, #max, #res) },
                    #min,
                    #max,
                )?
            },
            Leaf::Fixed { .. } => {
                let format = fixed_format(leaf, span);
                quote_spanned!(span=> ::codec::arbitrary::fixed(__u, #format)?)
            }
            Leaf::Quaternion => quote_spanned!(span=> ::codec::arbitrary::quaternion(__u)?),
            Leaf::With(_) => match &attrs.arbitrary {
                Some(path) => quote_spanned!(span=> #path(__u)?),
                None => any,
            },
            // Refused by `leaf_serialize`.
            Leaf::Bytes | Leaf::Wide | Leaf::Subset { .. } => TokenStream::new(),
        };
        Ok((serialize, generate))
    }

    /// The code that serializes an innermost value under `leaf`.
    fn leaf_serialize(
        &mut self,
        leaf: &Leaf,
        ty: &Type,
        place: TokenStream,
        span: Span,
    ) -> Result<TokenStream> {
        Ok(match leaf {
            Leaf::Range { min, max } => {
                let literals = literal::int(min).is_some() && literal::int(max).is_some();
                if !literals && !mentions(ty, self.params) {
                    self.checks.extend(quote_spanned! {span=>
                        let (min, max): (#ty, #ty) = (#min, #max);
                        ::core::assert!(min <= max, "empty range: min is greater than max");
                    });
                }
                quote_spanned! {span=>
                    ::codec::ops::ranged::Ranged::serialize_ranged(__s, #place, #min, #max)
                }
            }
            Leaf::Bits(bits) => {
                if !mentions(ty, self.params) {
                    self.checks.extend(quote_spanned! {span=>
                        ::core::assert!(
                            #bits >= 1 && #bits <= <#ty as ::codec::ops::ranged::RawBits>::WIDTH,
                            "`bits = N` must be at least 1 and at most the field type's width"
                        );
                    });
                }
                quote_spanned! {span=>
                    ::codec::ops::ranged::RawBits::serialize_raw(__s, #place, #bits)
                }
            }
            Leaf::Compressed { min, max, res } => {
                self.checks.extend(quote_spanned! {span=>
                    let (min, max, res): (f32, f32, f32) = (#min, #max, #res);
                    ::core::assert!(
                        max > min && res > 0.0 && (max - min) / res <= 4_294_967_040.0,
                        "`compressed`: min must be below max, res positive, and the steps fit 32 bits"
                    );
                });
                quote_spanned! {span=>
                    ::codec::ops::compressed_float::Compressed::serialize_compressed(
                        __s,
                        #place,
                        &const { ::codec::CompressedFloat::new(#min, #max, #res) },
                        #min,
                        #max,
                    )
                }
            }
            Leaf::Fixed {
                integer_bits,
                fraction_bits,
                min,
                max,
            } => {
                self.checks.extend(quote_spanned! {span=>
                    ::core::assert!(
                        ::codec::Fixed::new(#integer_bits, #fraction_bits, #min, #max).is_some(),
                        "`fixed`: the width must be 1 to 128 bits, min at most max, and both fit the width"
                    );
                });
                let format = fixed_format(leaf, span);
                quote_spanned!(span=> __s.serialize_fixed(#place, #format))
            }
            Leaf::Quaternion => quote_spanned! {span=>
                <::codec::protocols::scenes::SmallestThree as ::codec::Serialize>::serialize(#place, __s)
            },
            Leaf::With(path) => match &self.attrs.valid {
                Some(valid) => quote_spanned! {span=>
                    ::codec::ops::ruled::serialize_ruled(__s, #place, #path, #valid)
                },
                None => quote_spanned!(span=> #path(__s, #place)),
            },
            Leaf::Bytes => return Err(Error::new(
                span,
                "`bytes` applies to `[u8; N]` (raw bytes) or `Vec<u8>` (a count, then raw bytes)",
            )),
            Leaf::Wide => {
                return Err(Error::new(
                    span,
                    "`wide` applies to a `String` or a `Vec<u16>` of UTF-16 units",
                ))
            }
            Leaf::Subset { .. } => {
                return Err(Error::new(
                    span,
                    "`subset` applies to a `Vec` of indexed items (see `codec::subset::Indexed`)",
                ))
            }
        })
    }
}

/// A `&Fixed` constant for a `fixed(...)` declaration.
fn fixed_format(leaf: &Leaf, span: Span) -> TokenStream {
    let Leaf::Fixed {
        integer_bits,
        fraction_bits,
        min,
        max,
    } = leaf
    else {
        return TokenStream::new();
    };
    quote_spanned! {span=>
        &const {
            match ::codec::Fixed::new(#integer_bits, #fraction_bits, #min, #max) {
                ::core::option::Option::Some(format) => format,
                // Refused at compile time by the check beside the impl.
                ::core::option::Option::None => ::core::panic!("invalid `fixed` declaration"),
            }
        }
    }
}

/// Whether `ty` names one of `params`.
pub fn mentions(ty: &Type, params: &[Ident]) -> bool {
    fn walk(tokens: TokenStream, params: &[Ident]) -> bool {
        tokens.into_iter().any(|token| match token {
            TokenTree::Ident(ident) => params.contains(&ident),
            TokenTree::Group(group) => walk(group.stream(), params),
            _ => false,
        })
    }
    walk(ty.to_token_stream(), params)
}
