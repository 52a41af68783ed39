//! Ferry's own rules, free of I/O: no axum, no sqlx. Most unit tests live here.

pub mod account;
pub mod address;
pub mod calendar;
pub mod currency;
pub mod email;
pub mod fees;
pub mod language;
pub mod lightning;
pub mod money;
pub mod operator;
pub mod order;
pub mod referral;
pub mod secret;
pub mod transaction;

#[cfg(test)]
mod fuzz;
