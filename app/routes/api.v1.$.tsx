import { apiError } from "~/services/api-response.server";

const notFound = () => apiError(404, "not_found", "No such API endpoint. See docs/api.md for API v1.");
export const loader = notFound;
export const action = notFound;
