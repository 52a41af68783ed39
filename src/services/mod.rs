//! The use cases. A service takes a store and providers, never an HTTP type.

pub mod accounts;
pub mod affiliate;
pub mod availability;
pub mod contact;
pub mod content;
pub mod mail;
pub mod market_data;
pub mod oauth;
pub mod orders;
pub mod partners;
pub mod quotes;
pub mod rate_export;
pub mod status;
pub mod throttle;
