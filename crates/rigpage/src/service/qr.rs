//! The QR code of a creator's public address, for print and stream overlays.

use setupiq_core::UserId;
use setupiq_db::AppCtx;

use crate::error::RigpageError;
use crate::service::config;

/// The QR code (SVG) of the owner's `/rig/{slug}`: a page saved with a slug, live or not,
/// so a creator can print it before going live.
pub async fn svg(ctx: &AppCtx, user_id: UserId, username: String) -> Result<String, RigpageError> {
    let editor = ctx.db.run(move |conn| config::load(conn, user_id, &username)).await?;
    let slug = editor.settings.slug.filter(|_| editor.saved).ok_or(RigpageError::NoAddressYet)?;
    let address = ctx.config.public_link(&format!("/rig/{slug}"));
    let code = qrcode::QrCode::new(address.as_bytes()).map_err(RigpageError::corrupt)?;
    Ok(code.render::<qrcode::render::svg::Color<'_>>().min_dimensions(240, 240).quiet_zone(true).build())
}
