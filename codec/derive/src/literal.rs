//! The values of literal attribute arguments, so that mistakes in them are
//! caught when the macro runs. Arguments that are not literals (constants,
//! expressions) are checked by the compiler instead, through `const`
//! assertions in the generated code.

use syn::{Expr, Lit, UnOp};

/// An integer literal, possibly negated or in parentheses.
pub fn int(expr: &Expr) -> Option<i128> {
    match expr {
        Expr::Lit(lit) => match &lit.lit {
            Lit::Int(int) => int.base10_parse::<i128>().ok(),
            _ => None,
        },
        Expr::Unary(unary) if matches!(unary.op, UnOp::Neg(_)) => int(&unary.expr)?.checked_neg(),
        Expr::Paren(paren) => int(&paren.expr),
        Expr::Group(group) => int(&group.expr),
        _ => None,
    }
}

/// A float or integer literal as the `f32` the compiler would make of it,
/// possibly negated or in parentheses.
pub fn float(expr: &Expr) -> Option<f32> {
    match expr {
        Expr::Lit(lit) => match &lit.lit {
            Lit::Float(float) => float.base10_parse::<f32>().ok(),
            Lit::Int(int) => int.base10_parse::<f32>().ok(),
            _ => None,
        },
        Expr::Unary(unary) if matches!(unary.op, UnOp::Neg(_)) => float(&unary.expr).map(|v| -v),
        Expr::Paren(paren) => float(&paren.expr),
        Expr::Group(group) => float(&group.expr),
        _ => None,
    }
}
