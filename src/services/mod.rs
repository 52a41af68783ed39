//! The use cases. A service takes a store (and, later, providers), never an HTTP type.

pub mod affiliate;
