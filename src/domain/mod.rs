//! Ferry's own rules, free of I/O: no axum, no sqlx. Most unit tests live here.

pub mod language;
pub mod referral;
