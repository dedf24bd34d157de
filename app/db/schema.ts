import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { CAPTION_MODES } from "../domain/clip-request";
import { ASPECTS } from "../domain/crop";

/** Timestamps are stored as epoch milliseconds. */
const createdAt = () =>
  integer("created_at", { mode: "timestamp_ms" })
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`);
const ms = (name: string) => integer(name, { mode: "timestamp_ms" });

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    emailVerifiedAt: ms("email_verified_at"),
    passwordHash: text("password_hash"),
    googleSub: text("google_sub"),
    fullName: text("full_name").notNull().default("New User"),
    role: text("role", { enum: ["user", "admin"] })
      .notNull()
      .default("user"),
    plan: text("plan", { enum: ["Free", "Basic", "Advanced", "Pro", "Plugin"] })
      .notNull()
      .default("Free"),
    credits: integer("credits").notNull().default(0),
    status: text("status", { enum: ["online", "offline", "Banned"] })
      .notNull()
      .default("offline"),
    planPeriodStart: ms("plan_period_start"),
    planPeriodEnd: ms("plan_period_end"),
    pendingPlan: text("pending_plan", { enum: ["Free", "Basic", "Advanced", "Pro"] }),
    /** The admin who last set the plan by hand (null when a purchase or the user did): the actor of the grants
     *  that follow from it. */
    planSetBy: text("plan_set_by"),
    lowCreditAlerts: integer("low_credit_alerts", { mode: "boolean" }).notNull().default(true),
    timeZone: text("time_zone"),
    createdAt: createdAt(),
    updatedAt: ms("updated_at"),
    lastSeen: ms("last_seen"),
  },
  (t) => [
    uniqueIndex("users_email_unique").on(t.email),
    uniqueIndex("users_google_sub_unique").on(t.googleSub),
    index("users_created_at_idx").on(t.createdAt),
    index("users_full_name_idx").on(t.fullName),
    index("users_plan_idx").on(t.plan),
    index("users_status_idx").on(t.status),
    index("users_last_seen_idx").on(t.lastSeen),
    index("users_plan_period_end_idx").on(t.planPeriodEnd),
    // The last line of defence for "never negative": a batch that would overdraw aborts as a whole.
    check("users_credits_nonnegative", sql`${t.credits} >= 0`),
  ],
);

/** Server-side sessions. The id is the SHA-256 of the cookie's random value, so a database leak yields no cookies. */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    expiresAt: ms("expires_at").notNull(),
    lastActiveAt: ms("last_active_at"),
    userAgent: text("user_agent"),
    ip: text("ip"),
    showMaintenanceNotification: integer("show_maintenance_notification", { mode: "boolean" }).notNull().default(false),
    /** When an admin last confirmed their password in this session (step-up for role, credit and setting changes). */
    stepUpAt: ms("step_up_at"),
  },
  (t) => [index("sessions_user_id_idx").on(t.userId), index("sessions_expires_at_idx").on(t.expiresAt)],
);

/** Extension tokens: stored hashed, revocable, tied to the browser session that issued them. */
export const apiTokens = sqliteTable(
  "api_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sessionId: text("session_id"),
    tokenHash: text("token_hash").notNull(),
    createdAt: createdAt(),
    lastUsedAt: ms("last_used_at"),
    expiresAt: ms("expires_at").notNull(),
    revokedAt: ms("revoked_at"),
  },
  (t) => [
    uniqueIndex("api_tokens_token_hash_unique").on(t.tokenHash),
    index("api_tokens_user_id_idx").on(t.userId),
    index("api_tokens_session_id_idx").on(t.sessionId),
  ],
);

/** E-mail verification and password reset links: hashed, single use, expiring. */
export const emailTokens = sqliteTable(
  "email_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: ["verify", "reset"] }).notNull(),
    tokenHash: text("token_hash").notNull(),
    /** Verify links: the password chosen at the sign-up that asked for this link; confirming applies exactly it. */
    passwordHash: text("password_hash"),
    /** Verify links: SHA-256 of the signing-up browser's cookie; only that browser is signed in without a password. */
    browserHash: text("browser_hash"),
    createdAt: createdAt(),
    expiresAt: ms("expires_at").notNull(),
    usedAt: ms("used_at"),
  },
  (t) => [
    uniqueIndex("email_tokens_token_hash_unique").on(t.tokenHash),
    index("email_tokens_user_id_idx").on(t.userId),
  ],
);

/**
 * A clip's (and a preset's) short-video options: the aspect ('original' = no crop), where the crop sat as a fraction
 * of the free room, and the captions (track id, 'burn' or 'soft', an .srt beside the file). Rows from before these
 * options are Original without captions.
 */
const shortsOptionColumns = () => ({
  aspect: text("aspect", { enum: ASPECTS }).notNull().default("original"),
  cropPosition: real("crop_position"),
  captionsTrack: text("captions_track"),
  captionsMode: text("captions_mode", { enum: CAPTION_MODES }),
  captionsSrt: integer("captions_srt", { mode: "boolean" }).notNull().default(false),
});

export const clips = sqliteTable(
  "clips",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The account whose ledger paid for the clip (a team member's clip is paid by the owner): refunds and deletes
     *  go to this ledger. Filled for every row (the migration backfilled it from credit_ledger). */
    payerId: text("payer_id"),
    name: text("name").notNull(),
    videoUrl: text("video_url").notNull(),
    startTimeSeconds: real("start_time_seconds").notNull(),
    endTimeSeconds: real("end_time_seconds").notNull(),
    format: text("format").notNull().default("mp4"),
    quality: text("quality").notNull().default("720p"),
    cost: integer("cost").notNull(),
    status: text("status").notNull().default("Completed"),
    source: text("source", { enum: ["admin", "api", "extension", "seed"] })
      .notNull()
      .default("api"),
    createdAt: createdAt(),
    ...shortsOptionColumns(),
  },
  (t) => [
    // The user's clips by time (pages, API) and, covering, every figure of the Analytics Dashboard: its aggregates
    // read the index, never the rows (bench/analytics.ts).
    index("clips_user_stats_idx").on(
      t.userId,
      t.createdAt,
      t.cost,
      t.startTimeSeconds,
      t.endTimeSeconds,
      t.format,
      t.quality,
      t.videoUrl,
    ),
    // The top sources: grouped in index order by video, covering (no sort of every clip by URL).
    index("clips_user_sources_idx").on(t.userId, t.videoUrl, t.createdAt, t.cost),
    index("clips_created_at_idx").on(t.createdAt),
    // A team owner's clips list: the clips their balance paid for (their members' too), newest first.
    index("clips_payer_created_idx").on(t.payerId, t.createdAt),
    // Covers the admin aggregates (clips and credits per period, totals): they read the index, never the rows.
    index("clips_created_cost_idx").on(t.createdAt, t.cost),
  ],
);

/** Immutable ledger: users.credits always equals the sum of a user's deltas. */
export const creditLedger = sqliteTable(
  "credit_ledger",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    delta: integer("delta").notNull(),
    balanceAfter: integer("balance_after").notNull(),
    kind: text("kind", {
      enum: [
        "signup",
        "plan_grant",
        "renewal",
        "plugin_connect",
        "adjust",
        "clip",
        "refund",
        "starter_reset",
        "purchase",
        "pack",
        "payment_refund",
        "account_closed",
      ],
    }).notNull(),
    description: text("description").notNull(),
    clipId: text("clip_id"),
    holdId: text("hold_id"),
    idempotencyKey: text("idempotency_key").notNull(),
    /** Fingerprint of the request that used the key: the same key with another request is a conflict. */
    requestHash: text("request_hash").notNull(),
    actorId: text("actor_id"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("credit_ledger_user_key_unique").on(t.userId, t.idempotencyKey),
    index("credit_ledger_user_created_idx").on(t.userId, t.createdAt),
    index("credit_ledger_clip_idx").on(t.clipId),
  ],
);

/** Reservations for extension jobs: available = credits − sum(amount of held holds). */
export const creditHolds = sqliteTable(
  "credit_holds",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    amount: integer("amount").notNull(),
    status: text("status", { enum: ["held", "captured", "released", "expired"] })
      .notNull()
      .default("held"),
    request: text("request").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    requestHash: text("request_hash").notNull(),
    clipId: text("clip_id"),
    /** Who asked for the clip, when not the account that pays (a Pro team member); null: the account itself. */
    creatorId: text("creator_id"),
    createdAt: createdAt(),
    expiresAt: ms("expires_at").notNull(),
    settledAt: ms("settled_at"),
  },
  (t) => [
    uniqueIndex("credit_holds_user_key_unique").on(t.userId, t.idempotencyKey),
    index("credit_holds_user_status_idx").on(t.userId, t.status),
    index("credit_holds_expires_idx").on(t.status, t.expiresAt),
    // A member's ledger loads the holds it opened on a payer's ledger (loadLedgerState).
    index("credit_holds_creator_idx").on(t.creatorId, t.createdAt),
  ],
);

export const settings = sqliteTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: ms("updated_at"),
});

export const auditLog = sqliteTable(
  "audit_log",
  {
    id: text("id").primaryKey(),
    actorId: text("actor_id"),
    subjectId: text("subject_id"),
    action: text("action").notNull(),
    details: text("details"),
    ip: text("ip"),
    createdAt: createdAt(),
  },
  (t) => [index("audit_log_created_idx").on(t.createdAt), index("audit_log_subject_idx").on(t.subjectId)],
);

export const contactMessages = sqliteTable(
  "contact_messages",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    topic: text("topic").notNull(),
    message: text("message").notNull(),
    /** The admin Inbox's status: new until a reply is sent (answered), closed by an admin. */
    status: text("status", { enum: ["new", "answered", "closed"] })
      .notNull()
      .default("new"),
    createdAt: createdAt(),
  },
  (t) => [
    index("contact_messages_created_idx").on(t.createdAt),
    index("contact_messages_status_created_idx").on(t.status, t.createdAt),
  ],
);

/** The replies admins sent from the Inbox, each e-mailed to the message's sender. */
export const contactReplies = sqliteTable(
  "contact_replies",
  {
    id: text("id").primaryKey(),
    messageId: text("message_id")
      .notNull()
      .references(() => contactMessages.id, { onDelete: "cascade" }),
    adminId: text("admin_id").references(() => users.id, { onDelete: "set null" }),
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("contact_replies_message_idx").on(t.messageId, t.createdAt)],
);

/** "Notify Me" sign-ups for browsers we do not support yet (Safari). One row per address and product. */
export const notifyRequests = sqliteTable(
  "notify_requests",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    product: text("product").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("notify_requests_email_product_unique").on(t.email, t.product)],
);

/** Fixed-window counters shared by every Worker instance (D1, not memory). */
/**
 * Browsers that have signed in to an account (the hash of a long-lived random cookie): a right password from one of
 * them goes through even while strangers' failures have locked the account.
 */
export const knownDevices = sqliteTable(
  "known_devices",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    deviceHash: text("device_hash").notNull(),
    lastSignInAt: ms("last_sign_in_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.deviceHash] })],
);

export const rateLimits = sqliteTable("rate_limits", {
  key: text("key").primaryKey(),
  windowStart: integer("window_start").notNull(),
  count: integer("count").notNull(),
});

// ── Payments (Stripe) ────────────────────────────────────────────────────
// What Stripe told us, kept for pages and admin figures. Plan and credits themselves live on the user row and the
// ledger, changed only by the user's UserLedger (docs/decisions/011-payments.md).

/** The Stripe customer of a user, created once. */
export const billingCustomers = sqliteTable(
  "billing_customers",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    customerId: text("customer_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("billing_customers_customer_unique").on(t.customerId)],
);

/** The latest state of each subscription as re-read from Stripe (what comes next and when, for the plan page). */
export const billingSubscriptions = sqliteTable(
  "billing_subscriptions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status").notNull(),
    plan: text("plan", { enum: ["Free", "Basic", "Advanced", "Pro"] }).notNull(),
    interval: text("interval", { enum: ["monthly", "yearly"] }).notNull(),
    pendingPlan: text("pending_plan", { enum: ["Free", "Basic", "Advanced", "Pro"] }),
    currentPeriodStart: ms("current_period_start").notNull(),
    currentPeriodEnd: ms("current_period_end").notNull(),
    updatedAt: ms("updated_at").notNull(),
  },
  (t) => [index("billing_subscriptions_user_idx").on(t.userId, t.updatedAt)],
);

/** Paid (or failed) invoices and credit-pack payments: /billing's table and the revenue figures. */
export const billingPayments = sqliteTable(
  "billing_payments",
  {
    /** The invoice id (subscriptions) or the payment intent id (packs). */
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["invoice", "pack"] }).notNull(),
    number: text("number"),
    description: text("description").notNull(),
    status: text("status", { enum: ["paid", "failed", "refunded", "partially_refunded"] }).notNull(),
    amountCents: integer("amount_cents").notNull(),
    refundedCents: integer("refunded_cents").notNull().default(0),
    /** When the refunded amount last changed (null: never refunded, or refunded before this was recorded). */
    refundedAt: ms("refunded_at"),
    currency: text("currency").notNull().default("usd"),
    /** Credits this payment granted (what a refund may take back, as far as unspent). */
    credits: integer("credits").notNull().default(0),
    paymentIntentId: text("payment_intent_id"),
    invoiceUrl: text("invoice_url"),
    createdAt: ms("created_at").notNull(),
    paidAt: ms("paid_at"),
  },
  (t) => [
    index("billing_payments_user_idx").on(t.userId, t.createdAt),
    index("billing_payments_intent_idx").on(t.paymentIntentId),
    index("billing_payments_paid_idx").on(t.paidAt),
  ],
);

/** Stripe event ids already applied: each event is applied once. */
export const billingEvents = sqliteTable("billing_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  processedAt: ms("processed_at").notNull(),
});

/**
 * Pro teams: the team is the owner's account (its plan, limits and balance). One row per person in a team, the
 * owner included (role "owner", member_id = owner_id); member_id is the key, so a person is in one team at a time.
 */
export const teamMembers = sqliteTable(
  "team_members",
  {
    memberId: text("member_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["owner", "member"] }).notNull(),
    /** The invitation that brought the member in (null for the owner's own row). */
    invitationId: text("invitation_id"),
    joinedAt: ms("joined_at").notNull(),
  },
  (t) => [
    index("team_members_owner_idx").on(t.ownerId),
    uniqueIndex("team_members_invitation_unique").on(t.invitationId),
  ],
);

/** Invitations by e-mail: the link's token is stored only as its SHA-256; single use, 7 days. */
export const teamInvitations = sqliteTable(
  "team_invitations",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    tokenHash: text("token_hash").notNull(),
    invitedBy: text("invited_by").notNull(),
    createdAt: createdAt(),
    expiresAt: ms("expires_at").notNull(),
    acceptedAt: ms("accepted_at"),
    revokedAt: ms("revoked_at"),
  },
  (t) => [
    uniqueIndex("team_invitations_token_hash_unique").on(t.tokenHash),
    index("team_invitations_owner_idx").on(t.ownerId),
  ],
);

/** Custom presets (Advanced and Pro): named format, quality and optional clip length, per account, served by API v1. */
export const presets = sqliteTable(
  "presets",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    format: text("format").notNull(),
    quality: text("quality").notNull(),
    clipSeconds: real("clip_seconds"),
    createdAt: createdAt(),
    ...shortsOptionColumns(),
  },
  (t) => [
    uniqueIndex("presets_user_name_unique").on(t.userId, t.name),
    index("presets_user_created_idx").on(t.userId, t.createdAt),
  ],
);

/**
 * Paid invoice lines and packs: the money each credit stands on (`PaidLine` in app/domain/billing.ts). Written only
 * by the user's ledger, in the same batch as the ledger rows that grant or take back their credits.
 */
export const creditLines = sqliteTable(
  "credit_lines",
  {
    /** Stripe's invoice line id, or a pack's payment intent id. */
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The invoice id (or the pack's payment intent) a refund or a dispute names. */
    paymentId: text("payment_id").notNull(),
    subscriptionId: text("subscription_id"),
    label: text("label").notNull(),
    plan: text("plan"),
    billing: text("billing"),
    startAt: integer("start_at").notNull(),
    endAt: integer("end_at").notNull(),
    chargedCents: integer("charged_cents").notNull(),
    /** JSON: the credit months it pays for, [{ start, credits }]. */
    months: text("months").notNull(),
    /** JSON: money sent back by id (refund, dispute, proration credit) → cents. */
    returned: text("returned").notNull().default("{}"),
    granted: integer("granted").notNull().default(0),
    stopAt: integer("stop_at"),
    moves: integer("moves").notNull().default(0),
  },
  (t) => [index("credit_lines_user_idx").on(t.userId, t.endAt), index("credit_lines_payment_idx").on(t.paymentId)],
);

/**
 * What an admin must look at in billing: a Stripe event we could not act on (an object that is not ours), a dispute,
 * credits owed because money went back after they were spent. One row per event and kind.
 */
export const billingAlerts = sqliteTable(
  "billing_alerts",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: ["unmatched", "dispute", "owed"] }).notNull(),
    eventType: text("event_type").notNull(),
    objectId: text("object_id"),
    userId: text("user_id"),
    detail: text("detail").notNull(),
    createdAt: ms("created_at").notNull(),
  },
  (t) => [index("billing_alerts_created_idx").on(t.createdAt)],
);
