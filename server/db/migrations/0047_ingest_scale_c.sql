-- Reserved for a change of this round; intentionally empty until used.
SELECT 1;
