//! Integration tests: the real app on a random port, against SQLite and PostgreSQL.

mod admin;
mod affiliate;
mod binary;
mod durability;
mod exchange;
mod helpers;
mod orders;
mod platform;
mod store;
