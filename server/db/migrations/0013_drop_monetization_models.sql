-- One stored fact for the service types (issue 27): the Models editor reads and writes sites.service_types
-- (with service_type), so its own list of models, a second answer to the same question, goes.
ALTER TABLE "sites" DROP COLUMN "monetization_models";
