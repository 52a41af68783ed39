//! The sandbox provider: a simulated market, deterministic under a seed. USD prices start from
//! the catalogue's embedded snapshot and move on a bounded random walk; limits are about $10 to
//! $100,000; reserves, network fees and maintenance flags are simulated per currency. No real
//! funds ever move.

pub mod addresses;
mod market;
pub mod transactions;

pub use market::{SandboxConfig, SandboxMarket, SimulatedOutage};
