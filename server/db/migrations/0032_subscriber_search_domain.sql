-- placeholder: filled by the change that needs it (removed if unused)
SELECT 1;
