import { apiError } from "~/services/api-response.server";

const notFound = () => apiError(404, "not_found", "No such API endpoint. See API v1 in ARCHITECTURE.md.");
export const loader = notFound;
export const action = notFound;
