//! The rules of credits: plain functions over a connection, plus the async purchase flow
//! that asks the payment provider. No actix.

pub mod ads;
pub mod balance;
pub mod packs;
pub mod pro;
pub mod purchases;
pub mod receipts;
