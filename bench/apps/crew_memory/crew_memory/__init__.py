"""crew_memory: a CrewAI support-research crew with a shared span store."""
