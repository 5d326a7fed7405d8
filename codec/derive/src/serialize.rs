//! `#[derive(Serialize)]`: one generic `serialize` function for a struct or
//! an enum, field by field in declaration order.

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Error, Expr, Fields, Ident, Result, Type, WherePredicate};

use crate::attr::{self, ContainerAttrs, FieldAttrs, Marker};
use crate::field::{mentions, Bound, Builder};

/// A versioned struct's bounds.
struct Versions {
    first: Expr,
    latest: Expr,
}

/// Generated statements and the bounds they need.
#[derive(Default)]
struct Body {
    stmts: TokenStream,
    /// Compile-time assertions, for a `const` item beside the impl.
    checks: TokenStream,
    bounds: Vec<Bound>,
    /// Field types a reader must build from nothing (enum variants).
    defaults: Vec<Type>,
    /// For the `Arbitrary` implementation: each field's generated value,
    /// in declaration order.
    generated: Vec<TokenStream>,
    /// For the `Arbitrary` implementation: statements that give a field
    /// its `otherwise` value when its `when` condition is false.
    fixups: TokenStream,
    /// The body of `Arbitrary::arbitrary`.
    arbitrary: TokenStream,
    /// Const expressions of type `Option<u64>`, one per field and marker:
    /// their sum is the most bits the value writes.
    max_bits: Vec<TokenStream>,
}

/// `Self { a: .., b: .. }`, `Self(.., ..)` or `Self`, from `values` in
/// field order.
fn construct(path: TokenStream, fields: &Fields, values: &[TokenStream]) -> TokenStream {
    match fields {
        Fields::Named(named) => {
            let members = named.named.iter().map(|f| &f.ident);
            quote!(#path { #(#members: #values),* })
        }
        Fields::Unnamed(_) => quote!(#path ( #(#values),* )),
        Fields::Unit => path,
    }
}

/// Where a field lives: the `&mut` expression to serialize through, and the
/// place a reader assigns when the field is absent.
struct Place {
    borrow: TokenStream,
    assign: TokenStream,
}

fn name_of(field: &syn::Field, index: usize, attrs: &FieldAttrs) -> String {
    if let Some(name) = &attrs.name {
        return name.value();
    }
    part_of(field, index)
}

/// The name of the part of the value a field is (`Stream::enter`): its
/// identifier, or its position in a tuple. Unlike [`name_of`], never
/// renamed, so two fields of one struct never share it.
fn part_of(field: &syn::Field, index: usize) -> String {
    match &field.ident {
        Some(ident) => ident.to_string().trim_start_matches("r#").to_owned(),
        None => index.to_string(),
    }
}

/// The stream a statement works on: the function's stream, or the one a
/// versioned save lends.
fn stream(versions: Option<&Versions>) -> TokenStream {
    if versions.is_some() {
        quote!(__save.stream())
    } else {
        quote!(&mut *__stream)
    }
}

fn markers(list: &[Marker], versions: Option<&Versions>) -> Result<TokenStream> {
    let mut out = TokenStream::new();
    let stream = stream(versions);
    for marker in list {
        out.extend(match marker {
            Marker::Align => quote! {{
                let __s = #stream;
                __s.field_name("padding");
                __s.serialize_align()?;
            }},
            Marker::Check(label) => quote! {{
                let __s = #stream;
                __s.field_name(#label);
                __s.serialize_check(#label)?;
            }},
            Marker::Integrity(span) => {
                if versions.is_none() {
                    return Err(Error::new(
                        *span,
                        "`integrity` counts sections of a versioned save: add \
                         `#[serialize(versions = first..=latest)]` to the struct",
                    ));
                }
                quote!(__save.integrity()?;)
            }
        });
    }
    Ok(out)
}

/// The most bits of each marker in `list`, as `Body::max_bits` terms.
fn marker_bits(list: &[Marker]) -> impl Iterator<Item = TokenStream> + '_ {
    list.iter().map(|marker| match marker {
        Marker::Align => quote!(::codec::max_bits::ALIGN),
        Marker::Check(_) => quote!(::codec::max_bits::CHECK),
        // Only in a versioned save, which declares no bound.
        Marker::Integrity(_) => quote!(::core::option::Option::None),
    })
}

/// The statements of one field.
fn field(
    field: &syn::Field,
    index: usize,
    place: &Place,
    versions: Option<&Versions>,
    params: &[Ident],
    body: &mut Body,
) -> Result<()> {
    let attrs = attr::field(&field.attrs)?;
    let before = markers(&attrs.before, versions)?;
    let after = markers(&attrs.after, versions)?;
    body.max_bits.extend(marker_bits(&attrs.before));
    body.max_bits.extend(marker_bits(&attrs.after));
    let span = attrs.span.unwrap_or_else(|| field.span());
    let reading = quote!(<__S as ::codec::Stream>::IS_READING);
    let assign = &place.assign;

    if (attrs.added.is_some()
        || attrs.removed.is_some()
        || attrs.default.is_some()
        || attrs.version)
        && versions.is_none()
    {
        return Err(Error::new(
            span,
            "`added`, `removed`, `default` and `version` belong to a versioned save: add \
             `#[serialize(versions = first..=latest)]` to the struct",
        ));
    }

    let default = attrs.default.as_ref().map_or_else(
        || quote!(::core::default::Default::default()),
        ToTokens::to_token_stream,
    );
    let core = if attrs.version {
        let latest = versions.map(|v| &v.latest);
        body.generated.push(quote!(#latest));
        let part = part_of(field, index);
        quote!(if #reading {
            #assign = __save.version();
            __save.stream().assigned(#part, &mut #assign);
        })
    } else if attrs.skip {
        body.generated
            .push(quote!(::core::default::Default::default()));
        quote!()
    } else {
        let name = name_of(field, index, &attrs);
        let code =
            Builder::new(&attrs, name.clone(), params).build(&field.ty, place.borrow.clone())?;
        if let Some(bound) = code.bound {
            body.bounds.push(bound);
        }
        // A writer writes the latest version, where a removed field is
        // absent: its value is the one a reader would give it.
        body.generated.push(if attrs.removed.is_some() {
            default.clone()
        } else {
            code.generate
        });
        body.checks.extend(code.checks);
        // A field written only `when` its condition holds writes at most this.
        body.max_bits.push(code.max_bits);
        let expr = code.expr;
        let stream = stream(versions);
        let part = part_of(field, index);
        let mut core = quote! {{
            let __s = #stream;
            __s.enter(#part);
            __s.field_name(#name);
            #expr?;
            __s.leave();
        }};
        let assigned = assigned(field, &attrs, (&name, &part), params, &stream, assign)?;
        if let Some(when) = &attrs.when {
            let otherwise = attrs.otherwise.as_ref().map_or_else(
                || quote!(::core::default::Default::default()),
                ToTokens::to_token_stream,
            );
            let (when_there, otherwise_there, assign_there) = (
                replace_self(when.to_token_stream()),
                replace_self(otherwise.clone()),
                replace_self(assign.clone()),
            );
            body.fixups.extend(quote! {
                if !(#when_there) { #assign_there = #otherwise_there; }
            });
            core = quote! {
                if #when #core else if #reading { #assign = #otherwise; #assigned }
            };
        }
        if let Some(versions) = versions {
            let first = &versions.first;
            let latest = &versions.latest;
            let added = attrs
                .added
                .as_ref()
                .map_or_else(|| quote!(#first), ToTokens::to_token_stream);
            let removed = match &attrs.removed {
                Some(removed) => quote!(::core::option::Option::Some(#removed)),
                None => quote!(::core::option::Option::None),
            };
            if attrs.added.is_some() {
                body.checks.extend(quote_spanned! {span=>
                    ::core::assert!(#added >= #first && #added <= #latest,
                        "`added` must be a version between the first and the latest");
                });
            }
            if let Some(removed) = &attrs.removed {
                body.checks.extend(quote_spanned! {span=>
                    ::core::assert!(#removed > #added && #removed <= #latest,
                        "`removed` must come after `added` and at most at the latest version");
                });
            }
            core = quote! {
                if __save.has(#added, #removed) #core else if #reading { #assign = #default; #assigned }
            };
        }
        core
    };
    body.stmts.extend(quote!(#before #core #after));
    Ok(())
}

/// What a reader sets without reading (an `otherwise` or a version's
/// default), handed to the stream's `assigned` hook so that streams showing
/// the value mark it as such. A field travels through its declaration,
/// which may not be a `Serialize` of its own (a ranged `i32`), so a local
/// type gives it one; a field whose type names the container's generic
/// parameters, or whose attributes name `Self`, cannot be given one inside
/// the function and is not shown.
fn assigned(
    field: &syn::Field,
    attrs: &FieldAttrs,
    (name, part): (&str, &str),
    params: &[Ident],
    stream: &TokenStream,
    assign: &TokenStream,
) -> Result<TokenStream> {
    let names_self = field
        .attrs
        .iter()
        .any(|a| a.to_token_stream().into_iter().any(|t| names_self(&t)));
    if mentions(&field.ty, params) || names_self {
        return Ok(TokenStream::new());
    }
    let ty = &field.ty;
    let code = Builder::new(attrs, name.to_owned(), params).build(ty, quote!(&mut *self.0))?;
    let expr = code.expr;
    Ok(quote! {{
        struct __Assigned<'__a>(&'__a mut #ty);
        impl ::codec::Serialize for __Assigned<'_> {
            fn serialize<__S2: ::codec::Stream>(
                &mut self,
                __s: &mut __S2,
            ) -> ::core::result::Result<(), <__S2 as ::codec::Stream>::Error> {
                #expr
            }
        }
        (#stream).assigned(#part, &mut __Assigned(&mut #assign));
    }})
}

/// Whether `token` is or holds the identifier `Self`.
fn names_self(token: &TokenTree) -> bool {
    match token {
        TokenTree::Ident(ident) => ident == "Self",
        TokenTree::Group(group) => group.stream().into_iter().any(|t| names_self(&t)),
        _ => false,
    }
}

/// `tokens` with `self` renamed `__this`: a `when` condition written for
/// the `serialize` method, evaluated on a value under construction.
fn replace_self(tokens: TokenStream) -> TokenStream {
    tokens
        .into_iter()
        .map(|token| match token {
            TokenTree::Ident(ident) if ident == "self" => {
                TokenTree::Ident(Ident::new("__this", ident.span()))
            }
            TokenTree::Group(group) => {
                let mut replaced =
                    proc_macro2::Group::new(group.delimiter(), replace_self(group.stream()));
                replaced.set_span(group.span());
                TokenTree::Group(replaced)
            }
            other => other,
        })
        .collect()
}

fn where_clause(input: &DeriveInput, body: &Body) -> Result<Option<syn::WhereClause>> {
    let params: Vec<Ident> = input
        .generics
        .type_params()
        .map(|p| p.ident.clone())
        .collect();
    let mut clause = input.generics.where_clause.clone();
    if params.is_empty() {
        return Ok(clause);
    }
    let clause_ref = clause.get_or_insert_with(|| syn::WhereClause {
        where_token: Default::default(),
        predicates: Default::default(),
    });
    for bound in &body.bounds {
        if mentions(&bound.ty, &params) {
            let ty = &bound.ty;
            let predicate: WherePredicate = if bound.default {
                syn::parse_quote!(#ty: ::codec::Serialize + ::core::default::Default)
            } else {
                syn::parse_quote!(#ty: ::codec::Serialize)
            };
            clause_ref.predicates.push(predicate);
        }
    }
    for ty in &body.defaults {
        if mentions(ty, &params) {
            clause_ref
                .predicates
                .push(syn::parse_quote!(#ty: ::core::default::Default));
        }
    }
    Ok(clause)
}

fn struct_body(fields: &Fields, container: &ContainerAttrs, params: &[Ident]) -> Result<Body> {
    let versions = container.versions.as_ref().map(|(first, latest)| Versions {
        first: first.clone(),
        latest: latest.clone(),
    });
    let mut body = Body::default();
    for (index, f) in fields.iter().enumerate() {
        let member = match &f.ident {
            Some(ident) => quote!(#ident),
            None => {
                let index = syn::Index::from(index);
                quote!(#index)
            }
        };
        let place = Place {
            borrow: quote!(&mut self.#member),
            assign: quote!(self.#member),
        };
        field(f, index, &place, versions.as_ref(), params, &mut body)?;
    }
    let made = construct(quote!(Self), fields, &body.generated);
    let fixups = &body.fixups;
    body.arbitrary = quote! {
        let mut __this = #made;
        {
            let __this = &mut __this;
            #fixups
        }
        ::core::result::Result::Ok(__this)
    };
    let stmts = std::mem::take(&mut body.stmts);
    body.stmts = match &versions {
        None => {
            if let Some(upgrade) = &container.upgrade {
                return Err(Error::new(
                    upgrade.span(),
                    "`upgrade` converts an old save: add `#[serialize(versions = first..=latest)]`",
                ));
            }
            stmts
        }
        Some(Versions { first, latest }) => {
            let upgrade = container.upgrade.as_ref().map(|upgrade| {
                quote! {
                    if <__S as ::codec::Stream>::IS_READING {
                        #upgrade(self, __save.version());
                    }
                }
            });
            body.checks.extend(quote! {
                ::core::assert!(#first <= #latest, "versions: first is after latest");
            });
            // A save's header and sections are not added up.
            body.max_bits.push(quote!(::core::option::Option::None));
            quote! {
                let mut __version: u32 = #latest;
                let mut __save = ::codec::versioned::Versioned::begin(
                    __stream, &mut __version, #first, #latest,
                )?;
                #stmts
                #upgrade
            }
        }
    };
    Ok(body)
}

fn enum_body(
    input: &DeriveInput,
    data: &syn::DataEnum,
    container: &ContainerAttrs,
    params: &[Ident],
) -> Result<Body> {
    if container.versions.is_some() || container.upgrade.is_some() {
        return Err(Error::new(
            input.ident.span(),
            "a versioned save is a struct: `versions` and `upgrade` do not apply to an enum",
        ));
    }
    let count = data.variants.len();
    if count == 0 {
        return Err(Error::new(
            input.ident.span(),
            "an enum with no variants has no value to read",
        ));
    }
    let last = u32::try_from(count - 1)
        .map_err(|_| Error::new(input.ident.span(), "too many variants"))?;
    let mut body = Body::default();
    let mut tags = TokenStream::new();
    let mut fresh = TokenStream::new();
    let mut arms = TokenStream::new();
    let mut generate_arms = TokenStream::new();
    for (tag, variant) in data.variants.iter().enumerate() {
        let tag = u32::try_from(tag).unwrap_or(u32::MAX);
        let ident = &variant.ident;
        let bindings: Vec<Ident> = variant
            .fields
            .iter()
            .enumerate()
            .map(|(i, f)| {
                f.ident
                    .clone()
                    .unwrap_or_else(|| format_ident!("__field{}", i))
            })
            .collect();
        let (pattern, empty, made) = match &variant.fields {
            Fields::Named(_) => (
                quote!(Self::#ident { #(#bindings),* }),
                quote!(Self::#ident { .. }),
                quote!(Self::#ident { #(#bindings: ::core::default::Default::default()),* }),
            ),
            Fields::Unnamed(_) => {
                let defaults = bindings
                    .iter()
                    .map(|_| quote!(::core::default::Default::default()));
                (
                    quote!(Self::#ident ( #(#bindings),* )),
                    quote!(Self::#ident ( .. )),
                    quote!(Self::#ident ( #(#defaults),* )),
                )
            }
            Fields::Unit => (
                quote!(Self::#ident),
                quote!(Self::#ident),
                quote!(Self::#ident),
            ),
        };
        tags.extend(quote!(#empty => #tag,));
        fresh.extend(quote!(#tag => #made,));
        let mut variant_body = Body::default();
        for (index, (f, binding)) in variant.fields.iter().zip(&bindings).enumerate() {
            body.defaults.push(f.ty.clone());
            let place = Place {
                borrow: quote!(#binding),
                assign: quote!(*#binding),
            };
            field(f, index, &place, None, params, &mut variant_body)?;
        }
        body.bounds.extend(variant_body.bounds);
        body.checks.extend(variant_body.checks);
        // Each field into its binding, the `when` fix-ups on the bindings
        // as `serialize` sees them (`&mut`), then the variant.
        let generated = &variant_body.generated;
        let fixups = &variant_body.fixups;
        let values: Vec<TokenStream> = bindings.iter().map(|b| quote!(#b)).collect();
        let made = construct(quote!(Self::#ident), &variant.fields, &values);
        generate_arms.extend(quote! {
            #tag => {
                #(let mut #bindings = #generated;)*
                {
                    #(let #bindings = &mut #bindings;)*
                    #fixups
                }
                #made
            }
        });
        let stmts = variant_body.stmts;
        let variant_name = ident.to_string();
        arms.extend(quote!(#pattern => {
            __stream.enter(#variant_name);
            #stmts
            __stream.leave();
        }));
    }
    body.stmts = quote! {
        let mut __tag: u32 = match self { #tags };
        let __current = __tag;
        {
            // The tag goes by the name of the field that holds the enum.
            let __s = &mut *__stream;
            let __at = __s.bit_offset();
            ::codec::ops::ranged::Ranged::serialize_ranged(__s, &mut __tag, 0u32, #last)?;
            if <__S as ::codec::Stream>::IS_READING && __tag != __current {
                *self = match __tag {
                    #fresh
                    _ => return ::core::result::Result::Err(
                        __s.refuse(::codec::DecodeError::OutOfRange { at: __at }),
                    ),
                };
            }
        }
        match self { #arms }
    };
    let variants = count;
    body.arbitrary = quote! {
        let __tag = __u.choose_index(#variants)?;
        ::core::result::Result::Ok(match <::core::primitive::u32 as ::core::convert::TryFrom<usize>>::try_from(__tag).unwrap_or(::core::primitive::u32::MAX) {
            #generate_arms
            _ => return ::core::result::Result::Err(::codec::arbitrary::Error::IncorrectFormat),
        })
    };
    Ok(body)
}

/// The whole `impl Serialize`.
pub fn expand(input: &DeriveInput) -> Result<TokenStream> {
    let container = attr::container(&input.attrs)?;
    let params: Vec<Ident> = input
        .generics
        .type_params()
        .map(|p| p.ident.clone())
        .collect();
    let body = match &input.data {
        Data::Struct(data) => struct_body(&data.fields, &container, &params)?,
        Data::Enum(data) => enum_body(input, data, &container, &params)?,
        Data::Union(_) => {
            return Err(Error::new(
                Span::call_site(),
                "a union has no layout to serialize: use a struct or an enum",
            ))
        }
    };
    let ident = &input.ident;
    let (impl_generics, ty_generics, _) = input.generics.split_for_impl();
    let where_clause = where_clause(input, &body)?;
    let stmts = &body.stmts;
    let checks = &body.checks;
    let arbitrary = arbitrary_impl(input, &body.arbitrary);
    // An enum's variants are not added up: no bound declared.
    let max_bits = match &input.data {
        Data::Struct(_) => body.max_bits.iter().fold(
            quote!(::core::option::Option::Some(0u64)),
            |total, term| quote!(::codec::max_bits::sum(#total, #term)),
        ),
        _ => quote!(::core::option::Option::None),
    };
    Ok(quote! {
        // The declaration's rules, checked when the crate is built.
        #[allow(unused_parens, clippy::eq_op)]
        const _: () = { #checks };

        #[automatically_derived]
        impl #impl_generics ::codec::Serialize for #ident #ty_generics #where_clause {
            const MAX_BITS: ::core::option::Option<u64> = #max_bits;

            // Always: with `#[inline]` alone, a packet written or read from
            // more than one place was left out of line, each field's
            // position then a run-time sum kept in memory.
            #[inline(always)]
            #[allow(clippy::needless_question_mark, unused_braces, unused_parens)]
            fn serialize<__S: ::codec::Stream>(
                &mut self,
                __stream: &mut __S,
            ) -> ::core::result::Result<(), <__S as ::codec::Stream>::Error> {
                #stmts
                ::core::result::Result::Ok(())
            }
        }

        #arbitrary
    })
}

/// `impl Arbitrary` with `body`, present when `codec`'s feature
/// `arbitrary` is on. Every type parameter must be `Arbitrary` too.
pub fn arbitrary_impl(input: &DeriveInput, body: &TokenStream) -> TokenStream {
    let ident = &input.ident;
    let mut generics = input.generics.clone();
    let params: Vec<Ident> = generics.type_params().map(|p| p.ident.clone()).collect();
    generics.params.insert(0, syn::parse_quote!('__a));
    let clause = generics.make_where_clause();
    for param in &params {
        clause
            .predicates
            .push(syn::parse_quote!(#param: ::codec::arbitrary::Arbitrary<'__a>));
    }
    let (impl_generics, _, where_clause) = generics.split_for_impl();
    let (_, ty_generics, _) = input.generics.split_for_impl();
    quote! {
        ::codec::__when_arbitrary! {
            #[automatically_derived]
            impl #impl_generics ::codec::arbitrary::Arbitrary<'__a> for #ident #ty_generics #where_clause {
                #[allow(
                    clippy::needless_question_mark,
                    unused_braces,
                    unused_parens,
                    unused_mut,
                    unused_variables,
                    clippy::unnecessary_mut_passed,
                )]
                fn arbitrary(
                    __u: &mut ::codec::arbitrary::Unstructured<'__a>,
                ) -> ::codec::arbitrary::Result<Self> {
                    #body
                }
            }
        }
    }
}
