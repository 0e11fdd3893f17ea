//! The page's CSS, inline in the document (no stylesheet request): the theme's colours,
//! the font, the button style and corner radius. Every value put into the CSS is one the
//! server validated (hex colours, numbers) or chose (theme colours), never free text.

use std::fmt::Write;

use crate::service::config::Settings;
use crate::service::themes::{ButtonStyle, FontStyle, Theme};

/// Where the self-hosted gaming font is served (Orbitron, SIL Open Font License).
pub const GAMING_FONT_URL: &str = "/rig-assets/orbitron-latin-700.woff2";

/// A theme's page colours: background gradient, text, secondary text and card surface.
struct Palette {
    from: &'static str,
    to: &'static str,
    text: &'static str,
    muted: &'static str,
    surface: &'static str,
}

fn palette(theme: Theme) -> Palette {
    let p = |from, to, text, muted, surface| Palette { from, to, text, muted, surface };
    const DARK_SURFACE: &str = "rgba(255,255,255,.07)";
    const LIGHT_SURFACE: &str = "rgba(0,0,0,.05)";
    match theme {
        Theme::DarkNeon => p("#0B0B14", "#1A1033", "#F4F4F8", "#B4B4C7", DARK_SURFACE),
        Theme::MinimalWhite => p("#FFFFFF", "#F3F4F6", "#111827", "#4B5563", LIGHT_SURFACE),
        Theme::Vaporwave => p("#2B1055", "#4A2C8F", "#FFFFFF", "#E6DCFF", DARK_SURFACE),
        Theme::RgbGlow => p("#050510", "#0A1A2A", "#EFFFFB", "#A8E0D6", DARK_SURFACE),
        Theme::CreatorBrown => p("#F5F5DC", "#E8DCC4", "#3E2F1C", "#5E4A34", LIGHT_SURFACE),
        Theme::Matrix => p("#000000", "#001A00", "#B8FFC8", "#6FE08A", DARK_SURFACE),
        Theme::Sunset => p("#FFF5E6", "#FFE1D1", "#3D1F1F", "#6E4040", LIGHT_SURFACE),
        Theme::Ocean => p("#001F3F", "#003366", "#EAF6FF", "#A9D3F5", DARK_SURFACE),
        Theme::Midnight => p("#1A1625", "#2E2250", "#EDEBFF", "#BDB6E3", DARK_SURFACE),
        Theme::Forest => p("#F5F5DC", "#DDE8C8", "#1F3311", "#41592F", LIGHT_SURFACE),
        Theme::NeonPink => p("#0A0014", "#2A0033", "#FFE6F4", "#F5B3D6", DARK_SURFACE),
        Theme::Arctic => p("#FFFFFF", "#E6F4FA", "#0F2A3A", "#3B5B6E", LIGHT_SURFACE),
        Theme::RetroArcade => p("#1A0A0A", "#2D1010", "#FFF3C4", "#E6CB8A", DARK_SURFACE),
    }
}

fn font_stack(font: FontStyle) -> &'static str {
    match font {
        FontStyle::SansSerif => "system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif",
        FontStyle::Serif => "Georgia,'Times New Roman',Times,serif",
        FontStyle::Mono => "ui-monospace,SFMono-Regular,Menlo,Consolas,'Liberation Mono',monospace",
        FontStyle::Gaming => "Orbitron,system-ui,-apple-system,'Segoe UI',Roboto,sans-serif",
    }
}

/// Black or white, whichever reads better on `hex` (`#RRGGBB`).
pub fn contrast_text(hex: &str) -> &'static str {
    let channel = |i: usize| {
        let v = f64::from(u8::from_str_radix(hex.get(i..i + 2).unwrap_or("00"), 16).unwrap_or(0)) / 255.0;
        if v <= 0.039_28 { v / 12.92 } else { ((v + 0.055) / 1.055).powf(2.4) }
    };
    let luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
    if luminance > 0.179 { "#000000" } else { "#FFFFFF" }
}

/// The buttons' corner radius in pixels: the slider's 0-100 spans square to pill on a
/// 56 px button; rounded, pill and sharp fix it.
fn radius_px(settings: &Settings) -> String {
    match settings.button {
        ButtonStyle::Rounded => "12px".into(),
        ButtonStyle::Pill => "999px".into(),
        ButtonStyle::Sharp => "0".into(),
        _ => format!("{}px", (settings.corner_radius * 28 + 50) / 100),
    }
}

fn button_css(settings: &Settings, text: &str) -> String {
    let h = &settings.highlight_color;
    let on_h = contrast_text(h);
    match settings.button {
        ButtonStyle::Solid | ButtonStyle::Rounded | ButtonStyle::Pill | ButtonStyle::Sharp => {
            format!("background:{h};color:{on_h};border:2px solid {h}")
        }
        ButtonStyle::Outline => format!("background:transparent;color:{text};border:2px solid {h}"),
        ButtonStyle::Soft => format!("background:{h}33;color:{text};border:2px solid transparent"),
        ButtonStyle::Glass => format!(
            "background:rgba(255,255,255,.12);color:{text};border:1px solid rgba(255,255,255,.28);\
             -webkit-backdrop-filter:blur(12px);backdrop-filter:blur(12px)"
        ),
        ButtonStyle::Gradient => {
            format!("background:linear-gradient(135deg,{h},{h}AA);color:{on_h};border:2px solid transparent")
        }
    }
}

/// The whole stylesheet of one page.
pub fn css(settings: &Settings) -> String {
    let pal = palette(settings.theme);
    let mut css = String::with_capacity(4096);
    if settings.font == FontStyle::Gaming {
        let _ = write!(
            css,
            "@font-face{{font-family:Orbitron;font-weight:400 900;font-display:swap;\
             src:url({GAMING_FONT_URL}) format('woff2')}}"
        );
    }
    let _ = write!(
        css,
        ":root{{--h:{h};--t:{text};--m:{muted};--s:{surface};--r:{radius}}}\
         *{{box-sizing:border-box}}\
         html{{-webkit-text-size-adjust:100%}}\
         body{{margin:0;min-height:100vh;font-family:{font};color:var(--t);\
         background:linear-gradient(160deg,{from},{to}) fixed;line-height:1.5}}\
         a{{color:inherit}}\
         .bg,.bg-overlay{{position:fixed;inset:0;z-index:-1}}\
         .bg{{background-size:cover;background-position:center}}\
         .page{{max-width:640px;margin:0 auto;padding:24px 16px 32px}}\
         .hero{{position:relative;overflow:hidden;text-align:center;padding:32px 16px 24px;border-radius:24px;background:var(--s)}}\
         .hero-img{{position:absolute;inset:-24px;background-size:cover;background-position:center;z-index:0}}\
         .hero-scrim{{position:absolute;inset:0;z-index:0;background:linear-gradient(180deg,{from}99,{from}E6)}}\
         .hero>*:not(.hero-img):not(.hero-scrim){{position:relative;z-index:1}}\
         .avatar{{width:96px;height:96px;border-radius:50%;margin:0 auto 12px;border:3px solid var(--h);\
         display:flex;align-items:center;justify-content:center;font-size:32px;font-weight:700;overflow:hidden;background:var(--s)}}\
         .avatar img{{width:100%;height:100%;object-fit:cover}}\
         h1{{font-size:26px;margin:0 0 4px;overflow-wrap:anywhere}}\
         .handle{{margin:-6px 0 8px;opacity:.75;overflow-wrap:anywhere}}\
         .tagline{{margin:0 0 8px;font-weight:600;overflow-wrap:anywhere}}\
         .bio{{margin:0 auto 12px;max-width:460px;color:var(--m);overflow-wrap:anywhere;white-space:pre-line}}\
         .score{{display:inline-flex;align-items:center;gap:8px;padding:6px 14px;border-radius:999px;\
         border:2px solid var(--h);font-weight:700;margin:4px 0 12px}}\
         .score small{{font-weight:600;color:var(--m)}}\
         .socials{{display:flex;justify-content:center;flex-wrap:wrap;gap:10px}}\
         .socials a{{display:flex;width:44px;height:44px;align-items:center;justify-content:center;border-radius:50%;background:var(--s)}}\
         .socials svg{{width:22px;height:22px;fill:currentColor}}\
         .showcase{{margin:20px 0;padding:12px;border-radius:20px;background:var(--s)}}\
         .showcase img{{display:block;width:100%;aspect-ratio:16/9;object-fit:cover;border-radius:14px}}\
         .facts{{display:flex;justify-content:space-around;gap:8px;margin:12px 0 0;text-align:center}}\
         .facts dt{{font-size:12px;color:var(--m)}}.facts dd{{margin:0;font-weight:700}}\
         h2{{font-size:15px;letter-spacing:.06em;text-transform:uppercase;color:var(--m);margin:24px 4px 10px}}\
         .links{{list-style:none;margin:0;padding:0;display:grid;gap:12px}}\
         .btn{{display:flex;align-items:center;gap:12px;min-height:56px;padding:8px 16px;text-decoration:none;\
         border-radius:var(--r);{button};transition:transform .15s}}\
         .btn:hover,.btn:focus-visible{{transform:translateY(-2px)}}\
         .btn img,.btn svg{{width:36px;height:36px;flex:none;border-radius:8px;object-fit:cover}}\
         .btn svg{{padding:6px;fill:none;stroke:currentColor;stroke-width:2}}\
         .btn span{{display:block;overflow-wrap:anywhere}}\
         .btn .label{{font-weight:700}}.btn .url{{font-size:12px;opacity:.85}}\
         footer{{text-align:center;margin-top:32px;font-size:14px;color:var(--m)}}\
         footer a{{color:var(--t);font-weight:600}}\
         .missing{{text-align:center;padding:96px 16px}}\
         .home{{display:inline-block;margin-top:16px;padding:12px 20px;border-radius:999px;background:var(--h);\
         color:{on_h};text-decoration:none;font-weight:700}}",
        h = settings.highlight_color,
        text = pal.text,
        muted = pal.muted,
        surface = pal.surface,
        radius = radius_px(settings),
        font = font_stack(settings.font),
        from = pal.from,
        to = pal.to,
        button = button_css(settings, pal.text),
        on_h = contrast_text(&settings.highlight_color),
    );
    css
}

#[cfg(test)]
mod tests {
    use super::contrast_text;
    use crate::service::themes::Theme;

    fn luminance(hex: &str) -> f64 {
        let channel = |i: usize| {
            let v = f64::from(u8::from_str_radix(&hex[i..i + 2], 16).unwrap()) / 255.0;
            if v <= 0.039_28 { v / 12.92 } else { ((v + 0.055) / 1.055).powf(2.4) }
        };
        0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)
    }

    fn contrast(a: &str, b: &str) -> f64 {
        let (x, y) = (luminance(a), luminance(b));
        (x.max(y) + 0.05) / (x.min(y) + 0.05)
    }

    #[test]
    fn button_text_reads_on_every_theme_highlight() {
        for theme in Theme::ALL {
            let highlight = theme.preset().highlight;
            let text = contrast_text(highlight);
            let other = if text == "#000000" { "#FFFFFF" } else { "#000000" };
            assert!(contrast(highlight, text) >= 4.5, "{theme}: {text} on {highlight}");
            assert!(
                contrast(highlight, text) >= contrast(highlight, other),
                "{theme}: the better of the two"
            );
        }
        assert_eq!(contrast_text("#FFD700"), "#000000");
        assert_eq!(contrast_text("#2D5016"), "#FFFFFF");
    }
}
