/** The spec's display-only admin screens (§2): empty lists today, same cards, columns and texts. */
export interface PlaceholderScreen {
  title: string;
  crumb: string;
  cards: { label: string; value: string }[];
  headers: string[];
  empty: string;
  search?: string;
  primary?: string;
  csv: string;
}

export const PLACEHOLDERS = {
  promotions: {
    title: "Promotions",
    crumb: "Promotions",
    primary: "Add Promotion",
    cards: [
      { label: "Discount Codes Active", value: "0" },
      { label: "Referral Links Created", value: "0" },
      { label: "Sales from Promotions", value: "$0" },
    ],
    headers: ["No", "Code", "Discount", "Used", "Expiry Date", "Status"],
    search: "Search code...",
    empty: "No promotions found.",
    csv: "promotions_export.csv",
  },
  payouts: {
    title: "Affiliate Payouts",
    crumb: "Payouts",
    cards: [
      { label: "Total Payouts", value: "$0" },
      { label: "Pending Requests", value: "0" },
      { label: "Approved This Month", value: "0" },
      { label: "Rejected Requests", value: "0" },
    ],
    headers: ["No", "Affiliate", "Amount", "Requested On", "Status", "Processed On", "Actions"],
    search: "Search affiliate...",
    empty: "No payouts found.",
    csv: "payouts_export.csv",
  },
  earnings: {
    title: "Earnings",
    crumb: "Earnings",
    primary: "Request Payout",
    cards: [
      { label: "Total Revenue", value: "$0" },
      { label: "Total Payouts", value: "$0" },
      { label: "Pending Payouts", value: "$0" },
      { label: "Available Balance", value: "$0" },
    ],
    headers: ["Event Name", "Tickets Sold", "Revenue", "Platform Fee", "Net Earnings", "Status"],
    empty: "No earnings data available.",
    csv: "earnings_export.csv",
  },
  reviews: {
    title: "Reviews",
    crumb: "Reviews",
    cards: [
      { label: "Average Rating", value: "0 / 5" },
      { label: "Total Reviews", value: "0" },
      { label: "Positive Reviews", value: "0" },
      { label: "Negative Reviews", value: "0" },
    ],
    headers: ["Attendee Name", "Event Name", "Rating", "Review", "Date", "Visibility"],
    empty: "No reviews found.",
    csv: "reviews_export.csv",
  },
} satisfies Record<string, PlaceholderScreen>;
export type PlaceholderName = keyof typeof PLACEHOLDERS;
