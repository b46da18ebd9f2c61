-- Single sign-on (issue 35): who a user is at an OpenID Connect issuer. An issuer names a user by `sub`, which never
-- changes and is never given to another user there; the pair (issuer, sub) finds the PaiFlow user at every later
-- sign-in, whatever e-mail address the issuer reports by then. A user may have identities at several issuers.

-- CreateTable
CREATE TABLE "user_identities" (
    "issuer" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_identities_pkey" PRIMARY KEY ("issuer","subject")
);

-- CreateIndex
CREATE INDEX "user_identities_user_id_idx" ON "user_identities"("user_id");

-- AddForeignKey
ALTER TABLE "user_identities" ADD CONSTRAINT "user_identities_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
