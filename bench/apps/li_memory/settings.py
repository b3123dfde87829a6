from dataclasses import dataclass, replace


@dataclass
class AppSettings:
    token_limit: int = 4000
    tombstone_ttl_s: int = 3600
    summary_chars: int = 800
    log_keep: int = 500


DEFAULTS = AppSettings()


def with_overrides(settings: AppSettings, **kw) -> AppSettings:
    updated = replace(settings, **kw)
    updated.token_limit = max(updated.token_limit, 256)
    return updated
