// The whole schema in one place (diesel needs every table here). Mirrors
// migrations/sqlite and migrations/postgres; only portable column types.

diesel::table! {
    users (id) {
        id -> BigInt,
        email -> Text,
        username -> Text,
        display_name -> Text,
        password_hash -> Text,
        profile_picture -> Nullable<Text>,
        is_pro -> Bool,
        role -> Text,
        credits -> Integer,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        email_verified_at -> Nullable<Timestamp>,
        pro_granted -> Bool,
        pro_subscribed -> Bool,
    }
}

diesel::table! {
    sessions (token_hash) {
        token_hash -> Text,
        user_id -> BigInt,
        created_at -> Timestamp,
        last_seen_at -> Timestamp,
        expires_at -> Timestamp,
        user_agent -> Nullable<Text>,
    }
}

diesel::table! {
    password_reset_tokens (token_hash) {
        token_hash -> Text,
        user_id -> BigInt,
        created_at -> Timestamp,
        expires_at -> Timestamp,
        used_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    email_verification_tokens (token_hash) {
        token_hash -> Text,
        user_id -> BigInt,
        email -> Text,
        created_at -> Timestamp,
        expires_at -> Timestamp,
        used_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    login_attempts (id) {
        id -> BigInt,
        account_key -> Nullable<Text>,
        ip -> Nullable<Text>,
        succeeded -> Bool,
        attempted_at -> Timestamp,
    }
}

diesel::table! {
    credit_ledger (id) {
        id -> BigInt,
        user_id -> BigInt,
        amount -> Integer,
        balance_after -> Integer,
        reason -> Text,
        external_ref -> Nullable<Text>,
        created_at -> Timestamp,
    }
}

diesel::table! {
    contact_messages (id) {
        id -> BigInt,
        name -> Text,
        email -> Text,
        message -> Text,
        user_id -> Nullable<BigInt>,
        ip -> Nullable<Text>,
        created_at -> Timestamp,
    }
}

diesel::joinable!(sessions -> users (user_id));
diesel::joinable!(password_reset_tokens -> users (user_id));
diesel::joinable!(email_verification_tokens -> users (user_id));
diesel::joinable!(credit_ledger -> users (user_id));
diesel::joinable!(contact_messages -> users (user_id));

diesel::allow_tables_to_appear_in_same_query!(
    users,
    digest_subscriptions,
    sessions,
    password_reset_tokens,
    email_verification_tokens,
    login_attempts,
    credit_ledger,
    contact_messages,
    ad_views,
    payments,
    subscriptions,
    webhook_events,
    products,
    affiliate_clicks,
    analyses,
    analysis_holds,
    analysis_trials,
    signups,
    rigpages,
    rigpage_links,
    rigpage_images,
    rigpage_slug_holds,
    rigpage_views,
    rigpage_link_clicks,
    community_setups,
    community_images,
    community_votes,
    community_reports,
    community_comments,
    community_comment_reports,
    notifications,
    affiliate_click_days,
    affiliate_click_visitors,
    link_check_runs,
    link_checks,
    admin_log
);

diesel::table! {
    ad_views (id) {
        id -> BigInt,
        user_id -> BigInt,
        token_hash -> Text,
        started_at -> Timestamp,
        claimed_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    payments (intent_id) {
        intent_id -> Text,
        user_id -> BigInt,
        package_id -> Text,
        credits -> Integer,
        amount_cents -> BigInt,
        currency -> Text,
        provider -> Text,
        status -> Text,
        last_error -> Nullable<Text>,
        created_at -> Timestamp,
        fulfilled_at -> Nullable<Timestamp>,
        confirmed_at -> Nullable<Timestamp>,
        subscription_id -> Nullable<Text>,
    }
}

diesel::table! {
    subscriptions (id) {
        id -> Text,
        user_id -> BigInt,
        plan -> Text,
        provider -> Text,
        status -> Text,
        current_period_end -> Nullable<Timestamp>,
        cancel_at_period_end -> Bool,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        customer_id -> Nullable<Text>,
    }
}

diesel::table! {
    webhook_events (event_id) {
        event_id -> Text,
        event_type -> Text,
        received_at -> Timestamp,
    }
}

diesel::joinable!(ad_views -> users (user_id));
diesel::joinable!(payments -> users (user_id));
diesel::joinable!(subscriptions -> users (user_id));

diesel::table! {
    products (id) {
        id -> BigInt,
        name -> Text,
        product_category -> Text,
        analysis_category -> Nullable<Text>,
        chair_style -> Nullable<Text>,
        tier -> Text,
        price_cents -> BigInt,
        link -> Text,
        network -> Text,
        commission_bp -> Integer,
        justification -> Text,
        rating_tenths -> Integer,
        is_active -> Bool,
        last_verified_at -> Nullable<Timestamp>,
        created_at -> Timestamp,
        link_status -> Nullable<Text>,
        link_verdict -> Nullable<Text>,
        link_status_code -> Nullable<Integer>,
        link_final_url -> Nullable<Text>,
        consecutive_failures -> Integer,
        expected_final_url -> Nullable<Text>,
        kind -> Nullable<Text>,
    }
}

diesel::table! {
    affiliate_clicks (id) {
        id -> BigInt,
        product_id -> BigInt,
        user_id -> Nullable<BigInt>,
        session_id -> Text,
        suggestion_context -> Nullable<Text>,
        analysis_id -> Nullable<BigInt>,
        created_at -> Timestamp,
        is_bot -> Bool,
    }
}

diesel::joinable!(affiliate_clicks -> products (product_id));
diesel::joinable!(affiliate_clicks -> users (user_id));

diesel::table! {
    analyses (id) {
        id -> BigInt,
        user_id -> BigInt,
        input_type -> Text,
        input_text -> Nullable<Text>,
        image_key -> Nullable<Text>,
        thumbnail_key -> Nullable<Text>,
        overall_tenths -> Integer,
        analyzer -> Text,
        result_json -> Text,
        status -> Text,
        created_at -> Timestamp,
        share_token -> Nullable<Text>,
    }
}

diesel::table! {
    analysis_holds (owner) {
        owner -> Text,
        token -> Text,
        expires_at -> Timestamp,
    }
}

diesel::table! {
    analysis_trials (id) {
        id -> BigInt,
        visitor_hash -> Text,
        ip -> Text,
        created_at -> Timestamp,
    }
}

diesel::joinable!(analyses -> users (user_id));

diesel::table! {
    signups (id) {
        id -> BigInt,
        address -> Text,
        bonus -> Bool,
        created_at -> Timestamp,
    }
}

diesel::table! {
    rigpages (user_id) {
        user_id -> BigInt,
        enabled -> Bool,
        show_on_community -> Bool,
        slug -> Nullable<Text>,
        slug_key -> Nullable<Text>,
        setup_id -> Nullable<BigInt>,
        avatar_url -> Nullable<Text>,
        tagline -> Nullable<Text>,
        bio -> Nullable<Text>,
        social_links_json -> Text,
        theme -> Text,
        highlight_color -> Text,
        font_style -> Text,
        button_style -> Text,
        corner_radius -> Integer,
        background_url -> Nullable<Text>,
        background_overlay -> Text,
        background_blur -> Integer,
        background_opacity -> Integer,
        show_setup_in_background -> Bool,
        sections_json -> Text,
        ever_published -> Bool,
        paid_link_batches -> Integer,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    rigpage_links (id) {
        id -> BigInt,
        user_id -> BigInt,
        label -> Text,
        url -> Text,
        section -> Nullable<Text>,
        image_url -> Nullable<Text>,
        display_order -> Integer,
        enabled -> Bool,
        created_at -> Timestamp,
        health -> Text,
        consecutive_failures -> Integer,
        checked_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    rigpage_slug_holds (slug_key) {
        slug_key -> Text,
        held_until -> Timestamp,
        redirect_user_id -> Nullable<BigInt>,
    }
}

diesel::table! {
    rigpage_images (media_key) {
        media_key -> Text,
        user_id -> BigInt,
        kind -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    rigpage_views (user_id, day) {
        user_id -> BigInt,
        day -> Date,
        views -> Integer,
    }
}

diesel::table! {
    rigpage_link_clicks (link_id, day) {
        link_id -> BigInt,
        day -> Date,
        clicks -> Integer,
    }
}

diesel::joinable!(rigpages -> users (user_id));
diesel::joinable!(rigpages -> analyses (setup_id));
diesel::joinable!(rigpage_links -> rigpages (user_id));
diesel::joinable!(rigpage_images -> users (user_id));
diesel::joinable!(rigpage_views -> users (user_id));
diesel::joinable!(rigpage_link_clicks -> rigpage_links (link_id));

diesel::table! {
    community_setups (id) {
        id -> BigInt,
        user_id -> BigInt,
        analysis_id -> BigInt,
        title -> Nullable<Text>,
        description -> Nullable<Text>,
        score -> Integer,
        upvotes -> Integer,
        open_reports -> Integer,
        hidden -> Bool,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    community_images (id) {
        id -> BigInt,
        setup_id -> BigInt,
        position -> Integer,
        image_key -> Text,
        thumbnail_key -> Nullable<Text>,
        owned -> Bool,
    }
}

diesel::table! {
    community_votes (setup_id, user_id) {
        setup_id -> BigInt,
        user_id -> BigInt,
        value -> Integer,
        created_at -> Timestamp,
    }
}

diesel::table! {
    community_reports (id) {
        id -> BigInt,
        setup_id -> BigInt,
        reporter_id -> BigInt,
        reason -> Text,
        details -> Nullable<Text>,
        status -> Text,
        created_at -> Timestamp,
        reviewed_at -> Nullable<Timestamp>,
        reporter_address -> Nullable<Text>,
    }
}

diesel::table! {
    community_comment_reports (id) {
        id -> BigInt,
        comment_id -> BigInt,
        reporter_id -> BigInt,
        reason -> Text,
        details -> Nullable<Text>,
        status -> Text,
        created_at -> Timestamp,
        reviewed_at -> Nullable<Timestamp>,
        reporter_address -> Nullable<Text>,
    }
}

diesel::table! {
    community_comments (id) {
        id -> BigInt,
        setup_id -> BigInt,
        parent_id -> Nullable<BigInt>,
        user_id -> Nullable<BigInt>,
        body -> Text,
        deleted -> Bool,
        created_at -> Timestamp,
        edited_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    notifications (id) {
        id -> BigInt,
        user_id -> BigInt,
        kind -> Text,
        actor_id -> Nullable<BigInt>,
        setup_id -> Nullable<BigInt>,
        comment_id -> Nullable<BigInt>,
        created_at -> Timestamp,
        read_at -> Nullable<Timestamp>,
        subject -> Nullable<Text>,
    }
}

diesel::table! {
    digest_subscriptions (user_id) {
        user_id -> BigInt,
        token -> Text,
        subscribed_at -> Timestamp,
        covered_until -> Timestamp,
    }
}

diesel::joinable!(community_setups -> users (user_id));
diesel::joinable!(digest_subscriptions -> users (user_id));
diesel::joinable!(community_setups -> analyses (analysis_id));
diesel::joinable!(community_images -> community_setups (setup_id));
diesel::joinable!(community_votes -> community_setups (setup_id));
diesel::joinable!(community_votes -> users (user_id));
diesel::joinable!(community_reports -> community_setups (setup_id));
diesel::joinable!(community_reports -> users (reporter_id));
diesel::joinable!(community_comments -> community_setups (setup_id));
diesel::joinable!(community_comments -> users (user_id));
diesel::joinable!(community_comment_reports -> community_comments (comment_id));
diesel::joinable!(community_comment_reports -> users (reporter_id));
diesel::joinable!(notifications -> community_setups (setup_id));
diesel::joinable!(notifications -> community_comments (comment_id));

diesel::table! {
    affiliate_click_days (day, product_id) {
        day -> Date,
        product_id -> BigInt,
        clicks -> Integer,
    }
}

diesel::joinable!(affiliate_click_days -> products (product_id));

diesel::table! {
    affiliate_click_visitors (visitor, category) {
        visitor -> Text,
        category -> Text,
        last_click_at -> Timestamp,
    }
}

diesel::table! {
    link_check_runs (id) {
        id -> BigInt,
        status -> Text,
        category -> Nullable<Text>,
        network -> Nullable<Text>,
        started_by -> Nullable<BigInt>,
        started_at -> Timestamp,
        finished_at -> Nullable<Timestamp>,
        total_checked -> Integer,
        healthy -> Integer,
        dead -> Integer,
        warnings -> Integer,
        unknown -> Integer,
        errors -> Integer,
        timeouts -> Integer,
        unreachable -> Integer,
        failure_reason -> Nullable<Text>,
    }
}

diesel::table! {
    link_checks (id) {
        id -> BigInt,
        run_id -> BigInt,
        product_id -> BigInt,
        url -> Text,
        final_url -> Nullable<Text>,
        status_code -> Nullable<Integer>,
        verdict -> Text,
        chain -> Text,
        elapsed_ms -> Integer,
        checked_at -> Timestamp,
    }
}

diesel::joinable!(link_checks -> link_check_runs (run_id));
diesel::joinable!(link_checks -> products (product_id));

diesel::table! {
    admin_log (id) {
        id -> BigInt,
        admin_id -> Nullable<BigInt>,
        admin_name -> Text,
        action -> Text,
        target_type -> Text,
        target_id -> BigInt,
        details -> Nullable<Text>,
        created_at -> Timestamp,
    }
}
