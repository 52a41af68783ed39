//! Integration tests: the real app on a random port, against SQLite and PostgreSQL.

mod accounts;
mod admin;
mod affiliate;
mod binary;
mod contact;
mod content;
mod db_copy;
mod durability;
mod exchange;
mod faults;
mod helpers;
mod lightning;
mod limits;
mod markets;
mod money_path;
mod oauth;
mod orders;
mod partners;
mod platform;
mod rates;
mod replicas;
mod smtp_sink;
mod status;
mod store;
mod transactions;
mod upstream;
