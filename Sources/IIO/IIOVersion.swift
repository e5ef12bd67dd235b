import CIIO
