//! The affiliate catalogue (seeded by migration): several budget, balanced and premium
//! products for each analysis category, each with the kind of thing it is (a dual monitor
//! arm, a plant set) so that suggestions can pick what fits the setup; recommendations drawn
//! from it, and click tracking on the product links of suggestions.

pub mod dto;
pub mod error;
pub mod http;
mod models;
mod repo;
pub mod service;

pub use error::AffiliateError;
