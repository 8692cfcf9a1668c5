CREATE TABLE "api_request_windows" (
	"api_key_id" text PRIMARY KEY NOT NULL,
	"accepted_at" timestamp with time zone[] NOT NULL,
	"last_accepted" boolean NOT NULL
);
