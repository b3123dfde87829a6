"""kernel_notes: a note-taking research assistant built on Semantic Kernel."""
