//! The catalogue's link health, as verification runs record it and admins fix it: the
//! columns of `products` the admin crate's runs fill (status, verdict, status code, final
//! address, consecutive failures, the redirect an admin accepted), and an admin's changes
//! to a product's link and whether it is offered.

use setupiq_core::ProductId;
use setupiq_db::DbConnection;

use crate::error::AffiliateError;
pub use crate::models::{Category, CheckedLink, Health, LinkVerdict, Network, ProductLinkRow as ProductLink};
use crate::repo;

/// The catalogue with its link health, optionally one category and one network (the
/// stored keys), oldest first.
pub fn products(
    conn: &mut DbConnection,
    category: Option<&str>,
    network: Option<&str>,
) -> Result<Vec<ProductLink>, AffiliateError> {
    Ok(repo::product_links(conn, category, network)?)
}

pub fn find(conn: &mut DbConnection, product_id: ProductId) -> Result<Option<ProductLink>, AffiliateError> {
    Ok(repo::find_product_link(conn, product_id)?)
}

pub fn record(
    conn: &mut DbConnection,
    product_id: ProductId,
    checked: &CheckedLink<'_>,
) -> Result<(), AffiliateError> {
    match repo::set_link_health(conn, product_id, checked)? {
        0 => Err(AffiliateError::ProductNotFound),
        _ => Ok(()),
    }
}

/// Accepts (or forgets, with none) where the product's link redirects.
pub fn accept_final_url(
    conn: &mut DbConnection,
    product_id: ProductId,
    url: Option<&str>,
) -> Result<(), AffiliateError> {
    repo::set_expected_final_url(conn, product_id, url)?;
    Ok(())
}

/// A new affiliate link: its health starts over.
pub fn replace_link(
    conn: &mut DbConnection,
    product_id: ProductId,
    link: &str,
) -> Result<(), AffiliateError> {
    repo::replace_link(conn, product_id, link)?;
    Ok(())
}

/// Offers the product in suggestions again (its failure count starts over), or stops
/// offering it.
pub fn set_active(
    conn: &mut DbConnection,
    product_id: ProductId,
    active: bool,
) -> Result<(), AffiliateError> {
    repo::set_active(conn, product_id, active)?;
    Ok(())
}

/// Offers again those of `product_ids` that are switched off, their failure counts started
/// over, or stops offering those that are on; returns the ids and names of those changed.
pub fn set_active_many(
    conn: &mut DbConnection,
    product_ids: &[ProductId],
    active: bool,
) -> Result<Vec<(ProductId, String)>, AffiliateError> {
    Ok(repo::set_active_many(conn, product_ids, active)?)
}
