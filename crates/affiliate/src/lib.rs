//! The affiliate catalogue (seeded by migration): a budget, balanced and premium product
//! for each analysis category, recommendations drawn from it, and click tracking on the
//! product links of suggestions.

pub mod dto;
pub mod error;
pub mod http;
mod models;
mod repo;
pub mod service;

pub use error::AffiliateError;
