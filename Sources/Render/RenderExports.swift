@_exported import Game
