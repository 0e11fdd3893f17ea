//! Fixture builders for service tests: accounts without going through HTTP.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use setupiq_analysis::service::{self as analyses, InputType, NewAnalysis, suggestions};
use setupiq_analyzer::{AnalyzerName, LocalAnalyzer, Rating};
use setupiq_auth::Account;
use setupiq_auth::service::accounts::{self, Registration};
use setupiq_auth::service::{passwords, verify};
use setupiq_core::feed_changes::FeedChanges;
use setupiq_core::mail::Mailer;
use setupiq_core::media::{MediaKey, MediaKind, MediaStore};
use setupiq_core::upload::{ImageQueue, Uploads};
use setupiq_core::{AnalysisId, Config, SharedClock, UserId};
use setupiq_db::{AppCtx, Db, DbConnection};

/// The description behind every fixture analysis (rated by the embedded text analyzer).
pub const FIXTURE_SETUP: &str = "A 27 inch 144Hz monitor on an arm, a mechanical keyboard and a wireless mouse on a \
                                 cluttered desk, an ergonomic mesh chair, RGB strips behind the desk and cables in a tray.";

/// The password of every fixture account.
pub const PASSWORD: &str = "correct-horse-battery";

/// One real hash of [`PASSWORD`], computed once per test binary.
pub fn password_hash() -> &'static str {
    static HASH: OnceLock<String> = OnceLock::new();
    HASH.get_or_init(|| passwords::hash_blocking(PASSWORD).unwrap())
}

/// A registered account (with its signup bonus) for `email`.
pub fn account(conn: &mut DbConnection, email: &str) -> Account {
    let registration = Registration {
        email,
        display_name: "Test Gamer",
        password_hash: password_hash(),
        signup_bonus: true,
    };
    accounts::register(conn, &registration, chrono::Utc::now()).unwrap()
}

/// A registered account, made at `at`, whose address is verified (its first link followed
/// at once), through the verification service.
pub fn verified_account(conn: &mut DbConnection, email: &str, at: chrono::DateTime<chrono::Utc>) -> Account {
    let registration = Registration {
        email,
        display_name: "Test Gamer",
        password_hash: password_hash(),
        signup_bonus: true,
    };
    let account = accounts::register(conn, &registration, at).unwrap();
    let link = verify::create_link(conn, account.id, at).unwrap();
    verify::verify(conn, &link.token, &[], at).unwrap().account
}

/// An account whose reports weigh towards hiding a setup at `now`: verified, made two
/// days before, with a saved analysis.
pub fn established_reporter(
    conn: &mut DbConnection,
    email: &str,
    now: chrono::DateTime<chrono::Utc>,
) -> Account {
    let made = now - chrono::Duration::days(2);
    let account = verified_account(conn, email, made);
    analysis(conn, account.id, false, made);
    account
}

/// Saves an analysis of [`FIXTURE_SETUP`] for the user without taking a credit (as a
/// delivered result is saved): a description, or with `photo` a photo analysis whose image
/// keys point at no file (enough for everything but serving the photo). Returns its id.
pub fn analysis(
    conn: &mut DbConnection,
    user_id: UserId,
    photo: bool,
    now: chrono::DateTime<chrono::Utc>,
) -> AnalysisId {
    described_analysis(conn, user_id, photo, FIXTURE_SETUP, now)
}

/// [`analysis`] rated from `description` (another text, another score).
pub fn described_analysis(
    conn: &mut DbConnection,
    user_id: UserId,
    photo: bool,
    description: &str,
    now: chrono::DateTime<chrono::Utc>,
) -> AnalysisId {
    saved_analysis(conn, user_id, photo, description, None, now)
}

/// [`analysis`] made as a re-rating of `previous` (one of `user_id`'s): the same setup rated
/// again, linked to it (issue 58).
pub fn rerated_analysis(
    conn: &mut DbConnection,
    user_id: UserId,
    previous: AnalysisId,
    photo: bool,
    now: chrono::DateTime<chrono::Utc>,
) -> AnalysisId {
    saved_analysis(conn, user_id, photo, FIXTURE_SETUP, Some(previous), now)
}

fn saved_analysis(
    conn: &mut DbConnection,
    user_id: UserId,
    photo: bool,
    description: &str,
    previous: Option<AnalysisId>,
    now: chrono::DateTime<chrono::Utc>,
) -> AnalysisId {
    let assessment = setupiq_analyzer::text::assess(description).unwrap();
    let rating = Rating { assessment, analyzer: AnalyzerName::Local };
    let suggestions = suggestions::suggest(conn, &rating.assessment).unwrap();
    let image = MediaKey::generate("analyses", MediaKind::Jpeg);
    let thumbnail = MediaKey::generate("analysis_thumbs", MediaKind::Jpeg);
    let new = NewAnalysis {
        user_id,
        // Not charged: the fixture leaves the balance alone.
        is_pro: true,
        input_type: if photo { InputType::Image } else { InputType::Text },
        input_text: Some(description),
        image: photo.then_some(&image),
        thumbnail: photo.then_some(&thumbnail),
        rating: &rating,
        suggestions: &suggestions,
        previous,
    };
    analyses::save_and_charge(conn, &new, now).unwrap().0.id
}

/// `bytes` as a `data:{mime};base64,…` URL.
pub fn data_url(mime: &str, bytes: &[u8]) -> String {
    use base64::Engine as _;
    format!("data:{mime};base64,{}", base64::engine::general_purpose::STANDARD.encode(bytes))
}

/// A 320 x 200 JPEG as a data URL: gradients over `shade` of red, so photos with other
/// shades are other files (other media keys, other bytes).
pub fn jpeg_data_url(shade: u8) -> String {
    let image =
        image::RgbImage::from_fn(320, 200, |x, y| image::Rgb([shade, (x % 256) as u8, (y % 256) as u8]));
    let mut bytes = Vec::new();
    image.write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Jpeg).unwrap();
    data_url("image/jpeg", &bytes)
}

/// The start of a PNG of `width` x `height` pixels: signature and header, no pixels. What a
/// decompression bomb looks like before decoding; decoding it fails (there is no image data).
pub fn png_header(width: u32, height: u32) -> Vec<u8> {
    let mut ihdr = b"IHDR".to_vec();
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
    let mut png = vec![0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13];
    png.extend_from_slice(&ihdr);
    png.extend_from_slice(&crc32fast::hash(&ihdr).to_be_bytes());
    png
}

/// A lossless WebP of `width` x `height` pixels (at most 16384 a side) that is its header
/// and a few bytes: a decompression bomb's 30 bytes.
pub fn webp_bomb(width: u32, height: u32) -> Vec<u8> {
    let bits: u32 = (width - 1) | ((height - 1) << 14);
    let mut vp8l = vec![0x2F];
    vp8l.extend_from_slice(&bits.to_le_bytes());
    vp8l.extend_from_slice(&[0; 5]);
    let mut webp = b"RIFF".to_vec();
    webp.extend_from_slice(&(4 + 8 + vp8l.len() as u32).to_le_bytes());
    webp.extend_from_slice(b"WEBPVP8L");
    webp.extend_from_slice(&(vp8l.len() as u32).to_le_bytes());
    webp.extend_from_slice(&vp8l);
    webp
}

/// The upload path over `media` as in production: its image threads and safety classifier
/// are the embedded analyzer's, with the project's models (`make models` fetches them).
pub fn uploads(media: &MediaStore) -> Uploads {
    uploads_with_models(media, concat!(env!("CARGO_MANIFEST_DIR"), "/../../models"))
}

/// [`uploads`] with the models looked for in `models_dir`: a folder without them fails every
/// safety check, so every upload that needs one is refused (the path fails closed).
pub fn uploads_with_models(media: &MediaStore, models_dir: impl Into<PathBuf>) -> Uploads {
    Uploads::new(ImageQueue::new(8, 2), Arc::new(LocalAnalyzer::new(models_dir)), media.clone())
}

/// The handles a flow takes ([`AppCtx`]) over a test's database and clock, with everything
/// it writes under `dir` (the test's own temporary folder): e-mail as files in the outbox
/// (`ctx.config.outbox_dir()`), media in the local store; uploads pass the embedded safety
/// classifier, as in production.
pub fn ctx(db: &Db, clock: SharedClock, dir: &Path) -> AppCtx {
    let data_dir = dir.to_string_lossy().into_owned();
    let config = Config::from_lookup(|name| (name == "SETUPIQ_DATA_DIR").then(|| data_dir.clone())).unwrap();
    let media = MediaStore::local(config.media_dir());
    AppCtx {
        db: db.clone(),
        clock,
        mailer: Mailer::from_config(&config).unwrap(),
        uploads: uploads(&media),
        media,
        config: Arc::new(config),
        changes: FeedChanges::default(),
        hooks: Arc::default(),
    }
}
