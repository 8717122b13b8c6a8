"""Ask: route, retrieve, pack the sources, stream a cited answer, log it."""
