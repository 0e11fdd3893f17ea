//! Credits: the balance history, rewarded ads (3 ads earn 1 credit, at most 30 ads a UTC
//! day), credit packs, card purchases through Stripe or the offline test mode, and
//! deductions. Every balance change goes through the ledger of `setupiq_auth`, exactly once.

pub mod dto;
pub mod error;
pub mod http;
mod models;
pub mod payments;
mod repo;
pub mod service;

pub use error::CreditsError;
pub use service::purchases::PaymentProvider;
