//! The derive attributes (written below).
