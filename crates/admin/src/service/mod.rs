//! The admin's rules: [`analytics`], [`links`] (with the [`checker`] that visits them),
//! [`moderation`], [`users`] and the [`log`] each of their actions writes; [`rigpage_links`]
//! checks members' RigPage links with the same checker.

pub mod analytics;
pub mod checker;
pub mod links;
pub mod log;
pub mod moderation;
pub mod rigpage_links;
pub mod users;
