DROP TABLE `email_outbox`;--> statement-breakpoint
DROP TABLE `stripe_local_objects`;