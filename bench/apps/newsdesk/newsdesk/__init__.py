"""newsdesk: a Haystack pipeline that ingests wire stories and answers editors' questions."""
